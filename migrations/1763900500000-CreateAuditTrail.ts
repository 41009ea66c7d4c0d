import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The audit trail: a trigger on every tenant table writes who (staff member and API key of the
 * request, read from the `app.actor` setting the service sets on its connections), what (table,
 * record, action), when, and the row before and after, in the transaction of the change itself.
 *
 * A table created by a later migration gets its trigger with `SELECT audit_table('name')`; a test
 * checks that every tenant table has one.
 */
export class CreateAuditTrail1763900500000 implements MigrationInterface {
  name = "CreateAuditTrail1763900500000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_events (
        id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id  uuid NOT NULL,
        occurred_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
        actor_staff_id   uuid,
        actor_api_key_id uuid,
        request_id       text,
        resource_type    text NOT NULL,
        resource_id      text,
        action           text NOT NULL CHECK (action IN ('insert', 'update', 'delete')),
        before           jsonb,
        after            jsonb
      );
      CREATE INDEX ix_audit_events_org_time ON audit_events (organization_id, occurred_at, id);
      CREATE INDEX ix_audit_events_resource ON audit_events (organization_id, resource_type, resource_id, occurred_at);
      CREATE INDEX ix_audit_events_actor ON audit_events (organization_id, actor_staff_id, occurred_at);

      CREATE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        actor jsonb := nullif(current_setting('app.actor', true), '')::jsonb;
        old_row jsonb;
        new_row jsonb;
      BEGIN
        IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD) - 'secret_hash'; END IF;
        IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW) - 'secret_hash'; END IF;
        IF TG_OP = 'UPDATE' AND old_row = new_row THEN RETURN NULL; END IF;
        INSERT INTO audit_events (organization_id, actor_staff_id, actor_api_key_id, request_id, resource_type, resource_id, action, before, after)
        VALUES (
          COALESCE(new_row->>'organization_id', old_row->>'organization_id',
                   CASE WHEN TG_TABLE_NAME = 'organizations' THEN COALESCE(new_row->>'id', old_row->>'id') END)::uuid,
          nullif(actor->>'staffId', '')::uuid,
          nullif(actor->>'apiKeyId', '')::uuid,
          actor->>'requestId',
          TG_TABLE_NAME,
          COALESCE(new_row->>'id', old_row->>'id'),
          lower(TG_OP),
          old_row,
          new_row
        );
        RETURN NULL;
      END $$;

      CREATE FUNCTION audit_table(table_name text) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        EXECUTE format('CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION audit_row()', table_name);
      END $$;

      DO $$
      DECLARE t text;
      BEGIN
        FOR t IN
          SELECT c.table_name FROM information_schema.columns c
            JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema
           WHERE c.table_schema = 'public' AND tb.table_type = 'BASE TABLE'
             AND c.column_name = 'organization_id'
             AND c.table_name NOT IN ('audit_events', 'idempotency_keys')
        LOOP
          PERFORM audit_table(t);
        END LOOP;
        PERFORM audit_table('organizations');
      END $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DO $$
      DECLARE r record;
      BEGIN
        FOR r IN SELECT event_object_table AS t FROM information_schema.triggers WHERE trigger_name = 'audit' GROUP BY 1 LOOP
          EXECUTE format('DROP TRIGGER audit ON %I', r.t);
        END LOOP;
      END $$;
      DROP FUNCTION audit_table(text);
      DROP FUNCTION audit_row();
      DROP TABLE audit_events;
    `);
  }
}
