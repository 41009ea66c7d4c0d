import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * An event's `data.object` is the resource as its REST GET answers it. The trigger stores the
 * changed row (`object`); before the transaction commits, the service reads the resource through
 * the same GraphQL selection as its GET, on the same transaction, and keeps the answer in
 * `resource` with the GET's path in `resource_key` (the last one before a deletion is the
 * deleted resource's object). `record_event` lists the transaction's events in the
 * transaction-local setting `app.pending_events` for that purpose: a savepoint rolled back takes
 * its events off the list with it, and the setting never outlives its transaction.
 */
export class KeepEventResourcesAsRead1763901360000 implements MigrationInterface {
  name = "KeepEventResourcesAsRead1763901360000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE events ADD COLUMN resource jsonb, ADD COLUMN resource_key text;
      -- The last rendering of a resource (a deletion's object).
      CREATE INDEX ix_events_resource ON events (organization_id, resource_key, sequence) WHERE resource_key IS NOT NULL;

      CREATE OR REPLACE FUNCTION record_event(org uuid, event_type text, source_table text, object jsonb, previous jsonb) RETURNS uuid LANGUAGE plpgsql AS $$
      DECLARE
        actor jsonb := nullif(current_setting('app.actor', true), '')::jsonb;
        seq bigint;
        event_id uuid;
      BEGIN
        INSERT INTO event_sequences AS s (organization_id, last_sequence) VALUES (org, 1)
          ON CONFLICT (organization_id) DO UPDATE SET last_sequence = s.last_sequence + 1
          RETURNING last_sequence INTO seq;
        INSERT INTO events (organization_id, sequence, type, actor, source_table, object, previous_attributes)
          VALUES (org, seq, event_type,
                  CASE WHEN actor IS NULL THEN NULL ELSE jsonb_build_object('staffId', actor->'staffId', 'apiKeyId', actor->'apiKeyId') END,
                  source_table, object, previous)
          RETURNING id INTO event_id;
        INSERT INTO webhook_deliveries (organization_id, endpoint_id, event_id)
          SELECT org, e.id, event_id FROM webhook_endpoints e
           WHERE e.organization_id = org AND e.enabled AND (cardinality(e.event_types) = 0 OR event_type = ANY (e.event_types));
        PERFORM set_config('app.pending_events', COALESCE(current_setting('app.pending_events', true), '') || event_id::text || ' ', true);
        -- Delivered at commit only: subscribers and delivery workers in every process wake up.
        PERFORM pg_notify('events', org::text || ' ' || event_id::text);
        RETURN event_id;
      END $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION record_event(org uuid, event_type text, source_table text, object jsonb, previous jsonb) RETURNS uuid LANGUAGE plpgsql AS $$
      DECLARE
        actor jsonb := nullif(current_setting('app.actor', true), '')::jsonb;
        seq bigint;
        event_id uuid;
      BEGIN
        INSERT INTO event_sequences AS s (organization_id, last_sequence) VALUES (org, 1)
          ON CONFLICT (organization_id) DO UPDATE SET last_sequence = s.last_sequence + 1
          RETURNING last_sequence INTO seq;
        INSERT INTO events (organization_id, sequence, type, actor, source_table, object, previous_attributes)
          VALUES (org, seq, event_type,
                  CASE WHEN actor IS NULL THEN NULL ELSE jsonb_build_object('staffId', actor->'staffId', 'apiKeyId', actor->'apiKeyId') END,
                  source_table, object, previous)
          RETURNING id INTO event_id;
        INSERT INTO webhook_deliveries (organization_id, endpoint_id, event_id)
          SELECT org, e.id, event_id FROM webhook_endpoints e
           WHERE e.organization_id = org AND e.enabled AND (cardinality(e.event_types) = 0 OR event_type = ANY (e.event_types));
        PERFORM pg_notify('events', org::text || ' ' || event_id::text);
        RETURN event_id;
      END $$;
      DROP INDEX ix_events_resource;
      ALTER TABLE events DROP COLUMN resource, DROP COLUMN resource_key;
    `);
  }
}
