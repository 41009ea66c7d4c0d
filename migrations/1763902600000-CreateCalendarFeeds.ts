import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Calendar feeds: one secret feed per staff member and per location, kept as the hash of its token
 * (the audit trail leaves `secret_hash` out, and the feed's events carry the row without it).
 * Asking again replaces the hash in place; revoking deletes the row.
 *
 * A feed's `SEQUENCE` is the `revision` of its entry or time-off request: every update of the row
 * counts one up, in the database, so no writer can forget it. An entry that leaves a staff member
 * or a location (reassigned or moved) leaves a departure behind, so that the feed it left can still
 * show it as cancelled for 30 days; removed entries are soft-deleted and cancelled requests keep
 * their row, so those need nothing more.
 */
export class CreateCalendarFeeds1763902600000 implements MigrationInterface {
  name = "CreateCalendarFeeds1763902600000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calendar_feeds (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        staff_id        uuid,
        location_id     uuid,
        secret_hash     text NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_calendar_feeds_org_id UNIQUE (organization_id, id),
        CONSTRAINT uq_calendar_feeds_secret UNIQUE (secret_hash),
        CONSTRAINT ck_calendar_feeds_one_subject CHECK ((staff_id IS NULL) <> (location_id IS NULL)),
        CONSTRAINT fk_calendar_feeds_staff FOREIGN KEY (organization_id, staff_id)
          REFERENCES staff_members (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT fk_calendar_feeds_location FOREIGN KEY (organization_id, location_id)
          REFERENCES locations (organization_id, id) ON DELETE CASCADE
      );
      CREATE UNIQUE INDEX uq_calendar_feeds_staff ON calendar_feeds (organization_id, staff_id) WHERE staff_id IS NOT NULL;
      CREATE UNIQUE INDEX uq_calendar_feeds_location ON calendar_feeds (organization_id, location_id) WHERE location_id IS NOT NULL;
      SELECT audit_table('calendar_feeds');
      SELECT guard_table_versions('calendar_feeds');

      CREATE FUNCTION calendar_feed_event() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        row jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END) - 'secret_hash';
      BEGIN
        PERFORM record_event((row->>'organization_id')::uuid,
          'calendar_feed.' || CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'UPDATE' THEN 'replaced' ELSE 'revoked' END,
          TG_TABLE_NAME, row, NULL);
        RETURN NULL;
      END $$;
      CREATE TRIGGER events AFTER INSERT OR UPDATE OR DELETE ON calendar_feeds FOR EACH ROW EXECUTE FUNCTION calendar_feed_event();

      -- The system roles of existing organizations get what new ones start with.
      UPDATE access_roles SET permissions = permissions || '{calendar:self}' WHERE is_system AND name = 'Worker' AND NOT 'calendar:self' = ANY (permissions);
      UPDATE access_roles SET permissions = permissions || '{calendar:self,calendar:manage}' WHERE is_system AND name IN ('Admin', 'Manager') AND NOT 'calendar:manage' = ANY (permissions);

      ALTER TABLE schedule_entries ADD COLUMN revision integer NOT NULL DEFAULT 0;
      ALTER TABLE time_off_requests ADD COLUMN revision integer NOT NULL DEFAULT 0;
      CREATE FUNCTION count_revision() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.revision := OLD.revision + 1;
        RETURN NEW;
      END $$;
      CREATE TRIGGER count_revision BEFORE UPDATE ON schedule_entries FOR EACH ROW EXECUTE FUNCTION count_revision();
      CREATE TRIGGER count_revision BEFORE UPDATE ON time_off_requests FOR EACH ROW EXECUTE FUNCTION count_revision();

      CREATE TABLE schedule_entry_departures (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        entry_id        uuid NOT NULL,
        staff_id        uuid NOT NULL,
        location_id     uuid NOT NULL,
        start_time      timestamptz NOT NULL,
        end_time        timestamptz NOT NULL,
        revision        integer NOT NULL,
        departed_at     timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX ix_schedule_entry_departures_staff ON schedule_entry_departures (organization_id, staff_id, departed_at);
      CREATE INDEX ix_schedule_entry_departures_location ON schedule_entry_departures (organization_id, location_id, departed_at);
      SELECT audit_table('schedule_entry_departures');

      CREATE FUNCTION remember_entry_departure() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO schedule_entry_departures (organization_id, entry_id, staff_id, location_id, start_time, end_time, revision, departed_at)
        VALUES (OLD.organization_id, OLD.id, OLD.worker_id, OLD.location_id, OLD.start_time, OLD.end_time, NEW.revision, NEW.updated_at);
        RETURN NULL;
      END $$;
      CREATE TRIGGER remember_departure AFTER UPDATE OF worker_id, location_id ON schedule_entries FOR EACH ROW
        WHEN (OLD.worker_id IS DISTINCT FROM NEW.worker_id OR OLD.location_id IS DISTINCT FROM NEW.location_id)
        EXECUTE FUNCTION remember_entry_departure();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER remember_departure ON schedule_entries;
      DROP FUNCTION remember_entry_departure();
      DROP TABLE schedule_entry_departures;
      DROP TRIGGER count_revision ON time_off_requests;
      DROP TRIGGER count_revision ON schedule_entries;
      DROP FUNCTION count_revision();
      ALTER TABLE time_off_requests DROP COLUMN revision;
      ALTER TABLE schedule_entries DROP COLUMN revision;
      DROP TABLE calendar_feeds;
      DROP FUNCTION calendar_feed_event();
    `);
  }
}
