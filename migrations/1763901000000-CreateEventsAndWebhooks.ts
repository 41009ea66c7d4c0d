import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Events and webhooks.
 *
 * A trigger on each table of the event catalog (docs/events.md) writes the event in the
 * transaction of the change itself, as the audit trail does: no event without its change, no change
 * without its event, whatever code path made it. `record_event` numbers events per organization
 * from a counter row whose lock is held until commit, so sequence order is commit order and a
 * reader resuming `after` a sequence never skips an event committed later with a smaller number.
 * The same function queues one delivery per subscribed webhook endpoint, in the same transaction.
 *
 * Events, counters, deliveries and signing secrets are not audited: events are themselves a trail,
 * deliveries change at every attempt, and secrets must never be copied anywhere.
 */
export class CreateEventsAndWebhooks1763901000000 implements MigrationInterface {
  name = "CreateEventsAndWebhooks1763901000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE event_sequences (
        organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        last_sequence   bigint NOT NULL
      );

      CREATE TABLE events (
        id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id     uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        sequence            bigint NOT NULL,
        type                text NOT NULL,
        occurred_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
        actor               jsonb,
        source_table        text NOT NULL,
        object              jsonb NOT NULL,
        previous_attributes jsonb,
        CONSTRAINT uq_events_org_sequence UNIQUE (organization_id, sequence)
      );
      CREATE INDEX ix_events_org_time ON events (organization_id, occurred_at);

      CREATE TABLE webhook_endpoints (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        url             text NOT NULL,
        description     text,
        event_types     text[] NOT NULL DEFAULT '{}',
        enabled         boolean NOT NULL DEFAULT true,
        disabled_reason text,
        failing_since   timestamptz,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_webhook_endpoints_org_id UNIQUE (organization_id, id)
      );

      CREATE TABLE webhook_endpoint_secrets (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL,
        endpoint_id     uuid NOT NULL,
        secret          text NOT NULL,
        expires_at      timestamptz,
        created_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT fk_webhook_endpoint_secrets_endpoint FOREIGN KEY (organization_id, endpoint_id)
          REFERENCES webhook_endpoints (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX ix_webhook_endpoint_secrets_endpoint ON webhook_endpoint_secrets (organization_id, endpoint_id);

      -- One row per event and endpoint (or per test ping), worked on until delivered or given up.
      -- next_attempt_at '-infinity' is "due now" whatever the clock of the process that claims it.
      CREATE TABLE webhook_deliveries (
        id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id  uuid NOT NULL,
        endpoint_id      uuid NOT NULL,
        event_id         uuid REFERENCES events (id) ON DELETE CASCADE,
        status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts         integer NOT NULL DEFAULT 0,
        next_attempt_at  timestamptz NOT NULL DEFAULT '-infinity',
        lease_token      uuid,
        last_attempt_at  timestamptz,
        last_status_code integer,
        last_duration_ms integer,
        last_error       text,
        last_response    text,
        created_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT fk_webhook_deliveries_endpoint FOREIGN KEY (organization_id, endpoint_id)
          REFERENCES webhook_endpoints (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX ix_webhook_deliveries_endpoint ON webhook_deliveries (organization_id, endpoint_id, created_at DESC, id DESC);
      CREATE INDEX ix_webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

      CREATE FUNCTION record_event(org uuid, event_type text, source_table text, object jsonb, previous jsonb) RETURNS uuid LANGUAGE plpgsql AS $$
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
        -- Delivered at commit only: subscribers and delivery workers in every process wake up.
        PERFORM pg_notify('events', org::text || ' ' || event_id::text);
        RETURN event_id;
      END $$;

      CREATE FUNCTION event_row() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        resource text := TG_ARGV[0];
        old_row jsonb;
        new_row jsonb;
        row jsonb;
        previous jsonb;
        verb text;
        org uuid;
      BEGIN
        IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
        IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;
        IF TG_OP = 'UPDATE' AND old_row = new_row THEN RETURN NULL; END IF;
        -- The delivery worker's bookkeeping of an endpoint is no change a client made.
        IF resource = 'webhook_endpoint' AND TG_OP = 'UPDATE' AND (old_row - 'failing_since') = (new_row - 'failing_since') THEN RETURN NULL; END IF;
        row := COALESCE(new_row, old_row);
        org := (row->>'organization_id')::uuid;
        IF TG_OP = 'UPDATE' THEN
          SELECT jsonb_object_agg(o.key, o.value) INTO previous FROM jsonb_each(old_row) o WHERE new_row->o.key IS DISTINCT FROM o.value;
        END IF;
        verb := CASE
          WHEN TG_OP = 'INSERT' THEN 'created'
          WHEN TG_OP = 'DELETE' THEN 'deleted'
          WHEN old_row ? 'deleted_at' AND old_row->>'deleted_at' IS NULL AND new_row->>'deleted_at' IS NOT NULL THEN 'deleted'
          ELSE 'updated' END;

        IF resource = 'shift_break' THEN
          -- A break is part of its shift; only the time clock's start and end of a break are events of their own.
          IF TG_OP = 'INSERT' AND new_row->>'end_time' IS NULL THEN
            PERFORM record_event(org, 'timeclock.break_started', TG_TABLE_NAME, row, NULL);
          ELSIF TG_OP = 'UPDATE' AND old_row->>'end_time' IS NULL AND new_row->>'end_time' IS NOT NULL THEN
            PERFORM record_event(org, 'timeclock.break_ended', TG_TABLE_NAME, row, previous);
          END IF;
          RETURN NULL;
        ELSIF resource = 'timesheet' THEN
          PERFORM record_event(org, CASE TG_OP WHEN 'INSERT' THEN 'timesheet.day_locked' ELSE 'timesheet.day_unlocked' END, TG_TABLE_NAME, row, NULL);
          RETURN NULL;
        ELSIF resource = 'time_off_balance' THEN
          PERFORM record_event(org, 'time_off_balance.changed', TG_TABLE_NAME, row, NULL);
          RETURN NULL;
        ELSIF resource = 'open_shift_claim' THEN
          -- A worker's claim (preference) on an open shift and what becomes of it.
          IF TG_OP = 'INSERT' OR (old_row->>'status' = 'RETRACTED' AND new_row->>'status' = 'PENDING') THEN verb := 'claimed';
          ELSIF TG_OP = 'UPDATE' AND new_row->>'status' IS DISTINCT FROM old_row->>'status' THEN
            verb := CASE new_row->>'status' WHEN 'RETRACTED' THEN 'retracted' WHEN 'ACCEPTED' THEN 'assigned'
                                            WHEN 'DECLINED' THEN 'claim_declined' ELSE 'claim_removed' END;
          ELSE verb := 'claim_updated';
          END IF;
          PERFORM record_event(org, 'open_shift.' || verb, TG_TABLE_NAME, row, previous);
          RETURN NULL;
        ELSIF resource = 'open_shift' AND TG_OP = 'UPDATE' AND (new_row->>'accepted_count')::int >= (new_row->>'staff_count_required')::int
              AND (old_row->>'accepted_count')::int < (old_row->>'staff_count_required')::int THEN
          verb := 'fully_claimed';
        ELSIF resource = 'time_off_request' AND TG_OP = 'UPDATE' AND new_row->>'status' IS DISTINCT FROM old_row->>'status' THEN
          verb := new_row->>'status';
        ELSIF resource = 'webhook_endpoint' AND TG_OP = 'UPDATE' AND old_row->>'enabled' = 'true' AND new_row->>'enabled' = 'false' THEN
          verb := 'disabled';
        END IF;

        PERFORM record_event(org, resource || '.' || verb, TG_TABLE_NAME, row, previous);
        IF resource = 'shift' THEN
          IF TG_OP = 'INSERT' AND new_row->>'active' = 'true' THEN
            PERFORM record_event(org, 'timeclock.clocked_in', TG_TABLE_NAME, row, NULL);
          ELSIF TG_OP = 'UPDATE' AND old_row->>'end_time' IS NULL AND new_row->>'end_time' IS NOT NULL AND old_row->>'active' = 'true' THEN
            PERFORM record_event(org, 'timeclock.clocked_out', TG_TABLE_NAME, row, previous);
          END IF;
        END IF;
        RETURN NULL;
      END $$;

      CREATE FUNCTION record_events_of(table_name text, resource text) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        EXECUTE format('CREATE TRIGGER events AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION event_row(%L)', table_name, resource);
      END $$;

      SELECT record_events_of('shifts', 'shift');
      SELECT record_events_of('shift_breaks', 'shift_break');
      SELECT record_events_of('locked_days', 'timesheet');
      SELECT record_events_of('break_types', 'break_type');
      SELECT record_events_of('schedule_entries', 'schedule_entry');
      SELECT record_events_of('open_shifts', 'open_shift');
      SELECT record_events_of('open_shift_preferences', 'open_shift_claim');
      SELECT record_events_of('time_off_requests', 'time_off_request');
      SELECT record_events_of('time_off_policies', 'time_off_policy');
      SELECT record_events_of('time_off_ledger', 'time_off_balance');
      SELECT record_events_of('staff_members', 'staff_member');
      SELECT record_events_of('locations', 'location');
      SELECT record_events_of('roles', 'role');
      SELECT record_events_of('webhook_endpoints', 'webhook_endpoint');
      SELECT audit_table('webhook_endpoints');
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DO $$
      DECLARE r record;
      BEGIN
        FOR r IN SELECT event_object_table AS t FROM information_schema.triggers WHERE trigger_name = 'events' GROUP BY 1 LOOP
          EXECUTE format('DROP TRIGGER events ON %I', r.t);
        END LOOP;
      END $$;
      DROP FUNCTION record_events_of(text, text);
      DROP FUNCTION event_row();
      DROP FUNCTION record_event(uuid, text, text, jsonb, jsonb);
      DROP TABLE webhook_deliveries;
      DROP TABLE webhook_endpoint_secrets;
      DROP TABLE webhook_endpoints;
      DROP TABLE events;
      DROP TABLE event_sequences;
    `);
  }
}
