import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Every attempt to deliver a webhook, kept with its delivery: when it was made, the receiver's
 * status code, how long it took, the error and the start of the answer, and when the next one is
 * due (null once delivered or given up). The delivery row keeps only its state and latest attempt;
 * `GET …/webhook-endpoints/{id}/deliveries` lists these, newest first. Written by the delivery
 * worker in the statement that records the attempt's outcome, only under the claim's lease; gone
 * with its delivery (and so with its event after 30 days, or its endpoint). No key refers to the
 * endpoint itself: recording an attempt then locks no endpoint row, which a deletion of the
 * endpoint (locking it, then its deliveries) would otherwise meet in the opposite order.
 */
export class RecordWebhookAttempts1763901350000 implements MigrationInterface {
  name = "RecordWebhookAttempts1763901350000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_attempts (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL,
        endpoint_id     uuid NOT NULL,
        delivery_id     uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
        attempt         integer NOT NULL,
        status          text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempted_at    timestamptz NOT NULL,
        status_code     integer,
        duration_ms     integer NOT NULL,
        error           text,
        response        text,
        next_attempt_at timestamptz
      );
      -- The endpoint's attempts newest first (the list), and a delivery's (removing it with its event).
      CREATE INDEX ix_webhook_attempts_endpoint ON webhook_attempts (organization_id, endpoint_id, attempted_at DESC, id DESC);
      CREATE INDEX ix_webhook_attempts_delivery ON webhook_attempts (delivery_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query("DROP TABLE webhook_attempts");
  }
}
