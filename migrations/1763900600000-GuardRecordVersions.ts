import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Lost updates are refused by the database: when a request names the version of a record it read
 * (If-Match `"<id>@<updatedAt>"`, carried in the `app.actor` setting next to the actor), an update
 * of that record whose row has a different updated_at fails with SQLSTATE P0412 (answered 412).
 * The check runs on the locked row at the moment of the write, so no change can slip in between.
 * Once the row passed the check in a transaction, later updates of it in the same transaction pass.
 *
 * A table created by a later migration gets its guard with `SELECT guard_table_versions('name')`.
 */
export class GuardRecordVersions1763900600000 implements MigrationInterface {
  name = "GuardRecordVersions1763900600000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION guard_version() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        expected jsonb := nullif(current_setting('app.actor', true), '')::jsonb -> 'ifMatch';
      BEGIN
        IF expected IS NULL OR expected->>'id' <> OLD.id::text
           OR current_setting('app.version_checked', true) = OLD.id::text THEN
          RETURN NEW;
        END IF;
        IF abs(extract(epoch FROM OLD.updated_at) - extract(epoch FROM (expected->>'version')::timestamptz)) >= 0.001 THEN
          RAISE EXCEPTION 'The record has changed since it was read' USING ERRCODE = 'P0412';
        END IF;
        PERFORM set_config('app.version_checked', OLD.id::text, true);
        RETURN NEW;
      END $$;

      CREATE FUNCTION guard_table_versions(table_name text) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        EXECUTE format('CREATE TRIGGER guard_version BEFORE UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION guard_version()', table_name);
      END $$;

      DO $$
      DECLARE t text;
      BEGIN
        FOR t IN
          SELECT c.table_name FROM information_schema.columns c
            JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema
           WHERE c.table_schema = 'public' AND tb.table_type = 'BASE TABLE' AND c.column_name = 'updated_at'
             AND EXISTS (SELECT 1 FROM information_schema.columns i
                          WHERE i.table_schema = 'public' AND i.table_name = c.table_name AND i.column_name = 'id')
        LOOP
          PERFORM guard_table_versions(t);
        END LOOP;
      END $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DO $$
      DECLARE r record;
      BEGIN
        FOR r IN SELECT event_object_table AS t FROM information_schema.triggers WHERE trigger_name = 'guard_version' GROUP BY 1 LOOP
          EXECUTE format('DROP TRIGGER guard_version ON %I', r.t);
        END LOOP;
      END $$;
      DROP FUNCTION guard_table_versions(text);
      DROP FUNCTION guard_version();
    `);
  }
}
