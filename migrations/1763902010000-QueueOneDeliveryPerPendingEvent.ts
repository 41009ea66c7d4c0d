import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * An event waits at most once per endpoint: recovering it again while it is still pending queues
 * nothing (the index makes two recoveries at once safe too). Pending copies queued before are
 * dropped, the oldest kept.
 */
export class QueueOneDeliveryPerPendingEvent1763902010000 implements MigrationInterface {
  name = "QueueOneDeliveryPerPendingEvent1763902010000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM webhook_deliveries d
       USING webhook_deliveries k
       WHERE d.status = 'pending' AND k.status = 'pending' AND d.event_id IS NOT NULL
         AND k.organization_id = d.organization_id AND k.endpoint_id = d.endpoint_id AND k.event_id = d.event_id
         AND (k.created_at, k.id) < (d.created_at, d.id);
      CREATE UNIQUE INDEX ux_webhook_deliveries_pending_event ON webhook_deliveries (organization_id, endpoint_id, event_id) WHERE status = 'pending' AND event_id IS NOT NULL;
      CREATE INDEX ix_webhook_deliveries_pings ON webhook_deliveries (created_at) WHERE event_id IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query("DROP INDEX ix_webhook_deliveries_pings; DROP INDEX ux_webhook_deliveries_pending_event");
  }
}
