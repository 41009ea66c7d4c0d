import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A removed time-off policy keeps its row, its worker policies and their ledger for the audit:
 * `deleted_at` marks it gone from every list and read, and it no longer accrues or takes requests.
 * The lists' index serves only the policies still in use.
 */
export class KeepRemovedTimeOffPolicies1763901300000 implements MigrationInterface {
  name = "KeepRemovedTimeOffPolicies1763901300000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE time_off_policies ADD COLUMN deleted_at timestamptz;
      DROP INDEX ix_time_off_policies_org;
      CREATE INDEX ix_time_off_policies_org ON time_off_policies (organization_id, status, name) WHERE deleted_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX ix_time_off_policies_org;
      CREATE INDEX ix_time_off_policies_org ON time_off_policies (organization_id, status, name);
      ALTER TABLE time_off_policies DROP COLUMN deleted_at;
    `);
  }
}
