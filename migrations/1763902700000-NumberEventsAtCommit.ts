import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Events are numbered when their transaction commits, not when they are recorded. The counter row of
 * an organization (event_sequences) was locked by the first event of a transaction and held until
 * its commit, through everything the transaction still did, the rendering of its events' resources
 * included: every other change in the organization waited for it, so at a busy hour writes of
 * unrelated workers queued one behind another. A deferred constraint trigger now takes the number
 * at commit, as the last work of the transaction; the lock is still held until the commit ends, so
 * sequence order remains commit order, but for the length of the commit alone. Until then an
 * event's sequence is null (no other transaction sees it before it commits).
 */
export class NumberEventsAtCommit1763902700000 implements MigrationInterface {
  name = "NumberEventsAtCommit1763902700000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE events ALTER COLUMN sequence DROP NOT NULL;

      CREATE OR REPLACE FUNCTION record_event(org uuid, event_type text, source_table text, object jsonb, previous jsonb) RETURNS uuid LANGUAGE plpgsql AS $$
      DECLARE
        actor jsonb := nullif(current_setting('app.actor', true), '')::jsonb;
        event_id uuid;
      BEGIN
        INSERT INTO events (organization_id, sequence, type, actor, source_table, object, previous_attributes)
          VALUES (org, NULL, event_type,
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

      -- At commit, in the order the events were recorded.
      CREATE FUNCTION number_event() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        seq bigint;
      BEGIN
        INSERT INTO event_sequences AS s (organization_id, last_sequence) VALUES (NEW.organization_id, 1)
          ON CONFLICT (organization_id) DO UPDATE SET last_sequence = s.last_sequence + 1
          RETURNING last_sequence INTO seq;
        UPDATE events SET sequence = seq WHERE id = NEW.id;
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER number_events AFTER INSERT ON events DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION number_event();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER number_events ON events;
      DROP FUNCTION number_event();
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
        PERFORM pg_notify('events', org::text || ' ' || event_id::text);
        RETURN event_id;
      END $$;
      ALTER TABLE events ALTER COLUMN sequence SET NOT NULL;
    `);
  }
}
