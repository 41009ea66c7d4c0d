import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Schedules and open shifts.
 *
 * `schedule_entries` holds the published schedule only (removed entries keep their row with
 * `deleted_at`); managers plan in `schedule_drafts`, a change set of additions, changes and
 * removals of published entries that publishing applies in one transaction. Planned breaks
 * (`schedule_breaks`) belong to either an entry or a draft, and move from the draft to the entry
 * when it is published.
 *
 * A worker's live entries never overlap: an exclusion constraint, deferrable so that publishing
 * can swap two entries' times and be checked once at commit. An open shift counts its accepted
 * workers in `accepted_count`, bounded by `staff_count_required` in the database itself.
 */
export class CreateSchedulesAndOpenShifts1763900300000 implements MigrationInterface {
  name = "CreateSchedulesAndOpenShifts1763900300000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE EXTENSION IF NOT EXISTS btree_gist;

      CREATE TABLE open_shifts (
        id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id      uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id          uuid NOT NULL,
        role_id              uuid NOT NULL,
        start_time           timestamptz NOT NULL,
        end_time             timestamptz NOT NULL,
        break_type_ids       uuid[] NOT NULL DEFAULT '{}',
        staff_count_required integer NOT NULL,
        accepted_count       integer NOT NULL DEFAULT 0,
        require_approval     boolean NOT NULL DEFAULT true,
        note                 text,
        published_at         timestamptz,
        created_at           timestamptz NOT NULL DEFAULT now(),
        updated_at           timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_open_shifts_org_id UNIQUE (organization_id, id),
        CONSTRAINT ck_open_shifts_times CHECK (end_time > start_time),
        CONSTRAINT ck_open_shifts_staff_count CHECK (staff_count_required BETWEEN 1 AND 1000),
        CONSTRAINT ck_open_shifts_capacity CHECK (accepted_count BETWEEN 0 AND staff_count_required),
        CONSTRAINT fk_open_shifts_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id),
        CONSTRAINT fk_open_shifts_role FOREIGN KEY (organization_id, role_id)
          REFERENCES roles (organization_id, id)
      );
      CREATE INDEX ix_open_shifts_location_start ON open_shifts (organization_id, location_id, start_time, id);
      CREATE INDEX ix_open_shifts_role ON open_shifts (organization_id, role_id);

      CREATE TABLE schedule_entries (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id     uuid NOT NULL,
        worker_id       uuid NOT NULL,
        role_id         uuid NOT NULL,
        start_time      timestamptz NOT NULL,
        end_time        timestamptz NOT NULL,
        note            text,
        open_shift_id   uuid,
        deleted_at      timestamptz,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_schedule_entries_org_id UNIQUE (organization_id, id),
        CONSTRAINT ck_schedule_entries_times CHECK (end_time > start_time),
        CONSTRAINT fk_schedule_entries_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id),
        CONSTRAINT fk_schedule_entries_worker FOREIGN KEY (organization_id, worker_id)
          REFERENCES staff_members (organization_id, id),
        CONSTRAINT fk_schedule_entries_role FOREIGN KEY (organization_id, role_id)
          REFERENCES roles (organization_id, id),
        CONSTRAINT fk_schedule_entries_open_shift FOREIGN KEY (organization_id, open_shift_id)
          REFERENCES open_shifts (organization_id, id) ON DELETE SET NULL (open_shift_id),
        CONSTRAINT ex_schedule_entries_worker_overlap EXCLUDE USING gist (
          organization_id WITH =, worker_id WITH =, tstzrange(start_time, end_time) WITH &&
        ) WHERE (deleted_at IS NULL) DEFERRABLE INITIALLY IMMEDIATE
      );
      CREATE INDEX ix_schedule_entries_location_start ON schedule_entries (organization_id, location_id, start_time, id)
        WHERE deleted_at IS NULL;
      CREATE INDEX ix_schedule_entries_worker_start ON schedule_entries (organization_id, worker_id, start_time)
        WHERE deleted_at IS NULL;
      CREATE INDEX ix_schedule_entries_role ON schedule_entries (organization_id, role_id);
      CREATE INDEX ix_schedule_entries_open_shift ON schedule_entries (organization_id, open_shift_id)
        WHERE open_shift_id IS NOT NULL;

      CREATE TABLE schedule_drafts (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id     uuid NOT NULL,
        action          text NOT NULL,
        entry_id        uuid,
        worker_id       uuid NOT NULL,
        role_id         uuid NOT NULL,
        start_time      timestamptz NOT NULL,
        end_time        timestamptz NOT NULL,
        note            text,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_schedule_drafts_org_id UNIQUE (organization_id, id),
        CONSTRAINT ck_schedule_drafts_action CHECK (action IN ('ADD', 'CHANGE', 'REMOVE')),
        CONSTRAINT ck_schedule_drafts_entry CHECK ((action = 'ADD') = (entry_id IS NULL)),
        CONSTRAINT ck_schedule_drafts_times CHECK (end_time > start_time),
        CONSTRAINT fk_schedule_drafts_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id),
        CONSTRAINT fk_schedule_drafts_entry FOREIGN KEY (organization_id, entry_id)
          REFERENCES schedule_entries (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT fk_schedule_drafts_worker FOREIGN KEY (organization_id, worker_id)
          REFERENCES staff_members (organization_id, id),
        CONSTRAINT fk_schedule_drafts_role FOREIGN KEY (organization_id, role_id)
          REFERENCES roles (organization_id, id)
      );
      CREATE UNIQUE INDEX uq_schedule_drafts_entry ON schedule_drafts (entry_id) WHERE entry_id IS NOT NULL;
      CREATE INDEX ix_schedule_drafts_location_start ON schedule_drafts (organization_id, location_id, start_time, id);
      CREATE INDEX ix_schedule_drafts_worker ON schedule_drafts (organization_id, worker_id);
      CREATE INDEX ix_schedule_drafts_role ON schedule_drafts (organization_id, role_id);

      CREATE TABLE schedule_breaks (
        id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        entry_id         uuid,
        draft_id         uuid,
        break_type_id    uuid NOT NULL,
        name             text NOT NULL,
        paid             boolean NOT NULL,
        duration_minutes integer NOT NULL CHECK (duration_minutes > 0),
        start_time       timestamptz,
        position         integer NOT NULL,
        CONSTRAINT ck_schedule_breaks_owner CHECK (num_nonnulls(entry_id, draft_id) = 1),
        CONSTRAINT fk_schedule_breaks_entry FOREIGN KEY (organization_id, entry_id)
          REFERENCES schedule_entries (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT fk_schedule_breaks_draft FOREIGN KEY (organization_id, draft_id)
          REFERENCES schedule_drafts (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT fk_schedule_breaks_break_type FOREIGN KEY (organization_id, break_type_id)
          REFERENCES break_types (organization_id, id)
      );
      CREATE INDEX ix_schedule_breaks_entry ON schedule_breaks (entry_id, position) WHERE entry_id IS NOT NULL;
      CREATE INDEX ix_schedule_breaks_draft ON schedule_breaks (draft_id, position) WHERE draft_id IS NOT NULL;
      CREATE INDEX ix_schedule_breaks_break_type ON schedule_breaks (organization_id, break_type_id);

      CREATE TABLE open_shift_preferences (
        id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id   uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        open_shift_id     uuid NOT NULL,
        worker_id         uuid NOT NULL,
        preference        text NOT NULL,
        status            text NOT NULL,
        is_draft          boolean NOT NULL DEFAULT false,
        schedule_entry_id uuid,
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_open_shift_preferences_org_id UNIQUE (organization_id, id),
        CONSTRAINT uq_open_shift_preferences_worker UNIQUE (open_shift_id, worker_id),
        CONSTRAINT ck_open_shift_preferences_preference CHECK (preference IN ('PREFERRED', 'AVAILABLE', 'UNAVAILABLE')),
        CONSTRAINT ck_open_shift_preferences_status CHECK (status IN ('PENDING', 'ACCEPTED', 'DECLINED', 'RETRACTED', 'REMOVED')),
        CONSTRAINT ck_open_shift_preferences_accepted CHECK (status <> 'ACCEPTED' OR schedule_entry_id IS NOT NULL),
        CONSTRAINT fk_open_shift_preferences_open_shift FOREIGN KEY (organization_id, open_shift_id)
          REFERENCES open_shifts (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT fk_open_shift_preferences_worker FOREIGN KEY (organization_id, worker_id)
          REFERENCES staff_members (organization_id, id),
        CONSTRAINT fk_open_shift_preferences_entry FOREIGN KEY (organization_id, schedule_entry_id)
          REFERENCES schedule_entries (organization_id, id) ON DELETE SET NULL (schedule_entry_id)
      );
      CREATE INDEX ix_open_shift_preferences_worker ON open_shift_preferences (organization_id, worker_id);
      CREATE INDEX ix_open_shift_preferences_entry ON open_shift_preferences (schedule_entry_id) WHERE schedule_entry_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE open_shift_preferences;
      DROP TABLE schedule_breaks;
      DROP TABLE schedule_drafts;
      DROP TABLE schedule_entries;
      DROP TABLE open_shifts;
    `);
  }
}
