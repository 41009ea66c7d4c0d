import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Every table with `updated_at` refuses a change from a stale read (see GuardRecordVersions), in
 * GraphQL as in REST: the tables created since without the guard get it. A record is named by its
 * `id`, or where its representation has none by the key it is read by: a compliance profile by its
 * location (`"<locationId>@<updatedAt>"`), an organization's settings by the organization.
 *
 * `guard_missing_versions()` guards any table that still lacks it; the service calls it after
 * every migration run, so that a table of a later migration is never left without.
 */
export class GuardEveryRecordVersion1763902020000 implements MigrationInterface {
  name = "GuardEveryRecordVersion1763902020000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION guard_version_by_key() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        expected jsonb := nullif(current_setting('app.actor', true), '')::jsonb -> 'ifMatch';
        record_key text := to_jsonb(OLD) ->> TG_ARGV[0];
      BEGIN
        IF expected IS NULL OR expected->>'id' <> record_key
           OR current_setting('app.version_checked', true) = record_key THEN
          RETURN NEW;
        END IF;
        IF abs(extract(epoch FROM OLD.updated_at) - extract(epoch FROM (expected->>'version')::timestamptz)) >= 0.001 THEN
          RAISE EXCEPTION 'The record has changed since it was read' USING ERRCODE = 'P0412';
        END IF;
        PERFORM set_config('app.version_checked', record_key, true);
        RETURN NEW;
      END $$;

      CREATE FUNCTION guard_missing_versions() RETURNS int LANGUAGE plpgsql AS $$
      DECLARE
        t record;
        guarded int := 0;
      BEGIN
        FOR t IN
          SELECT c.table_name,
                 EXISTS (SELECT 1 FROM information_schema.columns i WHERE i.table_schema = 'public' AND i.table_name = c.table_name AND i.column_name = 'id') AS has_id
            FROM information_schema.columns c
            JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema
           WHERE c.table_schema = 'public' AND tb.table_type = 'BASE TABLE' AND c.column_name = 'updated_at'
             AND NOT EXISTS (SELECT 1 FROM information_schema.triggers tr
                              WHERE tr.event_object_schema = 'public' AND tr.event_object_table = c.table_name AND tr.trigger_name = 'guard_version')
        LOOP
          IF t.has_id THEN
            PERFORM guard_table_versions(t.table_name);
          ELSE
            EXECUTE format('CREATE TRIGGER guard_version BEFORE UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION guard_version_by_key(%L)', t.table_name, 'organization_id');
          END IF;
          guarded := guarded + 1;
        END LOOP;
        RETURN guarded;
      END $$;

      CREATE TRIGGER guard_version BEFORE UPDATE ON compliance_profiles FOR EACH ROW EXECUTE FUNCTION guard_version_by_key('location_id');
      SELECT guard_missing_versions();
    `);
  }

  /** The guards keyed by `id` stay: they are what GuardRecordVersions would have given those tables. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DO $$
      DECLARE r record;
      BEGIN
        FOR r IN SELECT event_object_table AS t FROM information_schema.triggers
                  WHERE trigger_name = 'guard_version' AND action_statement LIKE '%guard_version_by_key%' GROUP BY 1 LOOP
          EXECUTE format('DROP TRIGGER guard_version ON %I', r.t);
        END LOOP;
      END $$;
      DROP FUNCTION guard_missing_versions();
      DROP FUNCTION guard_version_by_key();
    `);
  }
}
