import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Timesheets: break types per location, shifts with their breaks, days locked for payroll, notes
 * on shifts, and each organization's overtime settings.
 *
 * A worker's live shifts never overlap: an exclusion constraint over [start, end) refuses it, and
 * an open shift (end_time NULL) is an open-ended range, so it overlaps everything after its start.
 */
export class CreateBreakTypesShiftsAndLocks1763900100000 implements MigrationInterface {
  name = "CreateBreakTypesShiftsAndLocks1763900100000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE EXTENSION IF NOT EXISTS btree_gist;

      CREATE TABLE break_types (
        id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id   uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        location_id       uuid NOT NULL,
        name              text NOT NULL,
        duration_minutes  integer NOT NULL CHECK (duration_minutes BETWEEN 1 AND 1440),
        frequency_minutes integer NOT NULL DEFAULT 0 CHECK (frequency_minutes BETWEEN 0 AND 1440),
        paid              boolean NOT NULL DEFAULT false,
        mandatory         boolean NOT NULL DEFAULT false,
        enabled           boolean NOT NULL DEFAULT true,
        active            boolean NOT NULL DEFAULT true,
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now(),
        deleted_at        timestamptz,
        CONSTRAINT uq_break_types_org_id UNIQUE (organization_id, id),
        CONSTRAINT fk_break_types_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id)
      );
      CREATE INDEX ix_break_types_location ON break_types (organization_id, location_id, name) WHERE deleted_at IS NULL;

      CREATE TABLE shifts (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        employee_id     uuid NOT NULL,
        location_id     uuid NOT NULL,
        role_id         uuid NOT NULL,
        start_time      timestamptz NOT NULL,
        end_time        timestamptz,
        hourly_wage     numeric(14, 4) NOT NULL DEFAULT 0 CHECK (hourly_wage >= 0),
        active          boolean NOT NULL DEFAULT false,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        deleted_at      timestamptz,
        CONSTRAINT uq_shifts_org_id UNIQUE (organization_id, id),
        CONSTRAINT ck_shifts_end_after_start CHECK (end_time IS NULL OR end_time > start_time),
        CONSTRAINT fk_shifts_employee FOREIGN KEY (organization_id, employee_id)
          REFERENCES staff_members (organization_id, id),
        CONSTRAINT fk_shifts_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id),
        CONSTRAINT fk_shifts_role FOREIGN KEY (organization_id, role_id)
          REFERENCES roles (organization_id, id),
        CONSTRAINT ex_shifts_no_overlap EXCLUDE USING gist (
          organization_id WITH =,
          employee_id WITH =,
          tstzrange(start_time, end_time, '[)') WITH &&
        ) WHERE (deleted_at IS NULL)
      );
      CREATE INDEX ix_shifts_location_start ON shifts (organization_id, location_id, start_time) WHERE deleted_at IS NULL;
      CREATE INDEX ix_shifts_employee_start ON shifts (organization_id, employee_id, start_time) WHERE deleted_at IS NULL;
      CREATE INDEX ix_shifts_start ON shifts (organization_id, start_time) WHERE deleted_at IS NULL;
      CREATE INDEX ix_shifts_role ON shifts (organization_id, role_id);

      CREATE TABLE shift_breaks (
        id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id   uuid NOT NULL,
        shift_id          uuid NOT NULL,
        break_type_id     uuid,
        start_time        timestamptz NOT NULL,
        end_time          timestamptz,
        paid              boolean NOT NULL DEFAULT false,
        name              text NOT NULL,
        mandatory         boolean NOT NULL DEFAULT false,
        frequency_minutes integer NOT NULL DEFAULT 0,
        duration_minutes  integer NOT NULL DEFAULT 0,
        CONSTRAINT ck_shift_breaks_end_after_start CHECK (end_time IS NULL OR end_time > start_time),
        CONSTRAINT fk_shift_breaks_shift FOREIGN KEY (organization_id, shift_id)
          REFERENCES shifts (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT fk_shift_breaks_type FOREIGN KEY (organization_id, break_type_id)
          REFERENCES break_types (organization_id, id)
      );
      CREATE INDEX ix_shift_breaks_shift ON shift_breaks (shift_id, start_time);
      CREATE INDEX ix_shift_breaks_type ON shift_breaks (organization_id, break_type_id) WHERE break_type_id IS NOT NULL;

      CREATE TABLE locked_days (
        organization_id uuid NOT NULL,
        location_id     uuid NOT NULL,
        day             date NOT NULL,
        locked_by       uuid,
        created_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, location_id, day),
        CONSTRAINT fk_locked_days_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id) ON DELETE CASCADE
      );

      CREATE TABLE shift_notes (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL,
        shift_id        uuid NOT NULL,
        author_id       uuid,
        text            text NOT NULL CHECK (length(text) BETWEEN 1 AND 5000),
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT fk_shift_notes_shift FOREIGN KEY (organization_id, shift_id)
          REFERENCES shifts (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT fk_shift_notes_author FOREIGN KEY (organization_id, author_id)
          REFERENCES staff_members (organization_id, id)
      );
      CREATE INDEX ix_shift_notes_shift ON shift_notes (organization_id, shift_id, created_at);

      CREATE TABLE timesheet_settings (
        organization_id      uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        weekly_overtime_hours numeric(6, 2) NOT NULL DEFAULT 40 CHECK (weekly_overtime_hours > 0 AND weekly_overtime_hours <= 168),
        daily_overtime_hours  numeric(6, 2) CHECK (daily_overtime_hours > 0 AND daily_overtime_hours <= 24),
        overtime_rate         numeric(6, 3) NOT NULL DEFAULT 1.5 CHECK (overtime_rate >= 1 AND overtime_rate <= 10),
        week_start            text NOT NULL DEFAULT 'Monday'
          CHECK (week_start IN ('Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday')),
        updated_at            timestamptz NOT NULL DEFAULT now()
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE timesheet_settings;
      DROP TABLE shift_notes;
      DROP TABLE locked_days;
      DROP TABLE shift_breaks;
      DROP TABLE shifts;
      DROP TABLE break_types;
    `);
  }
}
