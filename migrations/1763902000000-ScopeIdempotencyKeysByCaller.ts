import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * An idempotency key belongs to its caller (API key and staff member, or the platform key), not to
 * the whole organization: another caller's retry of the same key is another key. Answers kept
 * before were scoped by organization only and are dropped (they last 24 hours anyway). Whether a
 * kept answer had a credential redacted is kept with it.
 */
export class ScopeIdempotencyKeysByCaller1763902000000 implements MigrationInterface {
  name = "ScopeIdempotencyKeysByCaller1763902000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM idempotency_keys;
      ALTER TABLE idempotency_keys ADD COLUMN principal text NOT NULL;
      ALTER TABLE idempotency_keys ADD COLUMN response_redacted boolean NOT NULL DEFAULT false;
      ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
      ALTER TABLE idempotency_keys ADD PRIMARY KEY (organization_id, principal, key);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM idempotency_keys;
      ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
      ALTER TABLE idempotency_keys DROP COLUMN response_redacted;
      ALTER TABLE idempotency_keys DROP COLUMN principal;
      ALTER TABLE idempotency_keys ADD PRIMARY KEY (organization_id, key);
    `);
  }
}
