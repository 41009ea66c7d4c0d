import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The counters of the rate limits every service process shares (rate-limiter-flexible's
 * RateLimiterPostgres, whose columns these are). They belong to a credential or a client address,
 * not to an organization's records, so they live in a schema of their own, outside the tenant
 * tables and the audit trail; a row lives one window. `expire` (epoch milliseconds) serves the
 * library's periodic removal of old rows.
 */
export class CreateRateLimitCounters1763901100000 implements MigrationInterface {
  name = "CreateRateLimitCounters1763901100000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE SCHEMA rate_limits;
      CREATE TABLE rate_limits.counters (
        key    varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      );
      CREATE INDEX ix_rate_limit_counters_expire ON rate_limits.counters (expire);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query("DROP SCHEMA rate_limits CASCADE");
  }
}
