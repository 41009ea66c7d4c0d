import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Answers kept for `Idempotency-Key` retries, per organization, for 24 hours. organization_id is
 * the nil UUID for calls made before there is an organization (creating one), so it carries no
 * foreign key.
 */
export class CreateIdempotencyKeys1763900400000 implements MigrationInterface {
  name = "CreateIdempotencyKeys1763900400000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        organization_id uuid NOT NULL,
        key             text NOT NULL,
        request_hash    text NOT NULL,
        response_status integer,
        response_body   text,
        created_at      timestamptz NOT NULL DEFAULT now(),
        expires_at      timestamptz NOT NULL,
        PRIMARY KEY (organization_id, key)
      );
      CREATE INDEX ix_idempotency_keys_expires ON idempotency_keys (expires_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query("DROP TABLE idempotency_keys");
  }
}
