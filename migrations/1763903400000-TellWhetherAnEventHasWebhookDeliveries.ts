import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * An event's notification tells how many webhook deliveries it made (`org event deliveries`): every
 * process woke its delivery worker for every committed event, and each wake cost a transaction that
 * looked for due deliveries; in an organization without webhooks there never are any. A listener
 * now wakes it only for an event that made deliveries (an old two-part payload still wakes it).
 */
export class TellWhetherAnEventHasWebhookDeliveries1763903400000 implements MigrationInterface {
  name = "TellWhetherAnEventHasWebhookDeliveries1763903400000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(recordEvent("org::text || ' ' || event_id::text || ' ' || deliveries::text"));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(recordEvent("org::text || ' ' || event_id::text"));
  }
}

function recordEvent(payload: string): string {
  return `
    CREATE OR REPLACE FUNCTION record_event(org uuid, event_type text, source_table text, object jsonb, previous jsonb) RETURNS uuid LANGUAGE plpgsql AS $$
    DECLARE
      actor jsonb := nullif(current_setting('app.actor', true), '')::jsonb;
      event_id uuid;
      deliveries int;
    BEGIN
      INSERT INTO events (organization_id, sequence, type, actor, source_table, object, previous_attributes)
        VALUES (org, NULL, event_type,
                CASE WHEN actor IS NULL THEN NULL ELSE jsonb_build_object('staffId', actor->'staffId', 'apiKeyId', actor->'apiKeyId') END,
                source_table, object, previous)
        RETURNING id INTO event_id;
      INSERT INTO webhook_deliveries (organization_id, endpoint_id, event_id)
        SELECT org, e.id, event_id FROM webhook_endpoints e
         WHERE e.organization_id = org AND e.enabled AND (cardinality(e.event_types) = 0 OR event_type = ANY (e.event_types));
      GET DIAGNOSTICS deliveries = ROW_COUNT;
      PERFORM set_config('app.pending_events', COALESCE(current_setting('app.pending_events', true), '') || event_id::text || ' ', true);
      -- Delivered at commit only: subscribers and delivery workers in every process wake up.
      PERFORM pg_notify('events', ${payload});
      RETURN event_id;
    END $$;`;
}
