import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Rate-limit counters are written by every lease a process takes, and each write used to wait for
 * its commit to reach the disk, holding the shared organization row meanwhile: under load a lease
 * took up to 0.7 s, and every call of the organization in that process waited for it. A counter
 * lives one window and a crash may lose it (the window starts again, a bounded overshoot, as
 * docs/scaling.md says), so the table is unlogged: no write-ahead log, no flush at commit. Replicas do not
 * need it either: the limiter reads and writes the primary alone.
 */
export class KeepRateLimitCountersOutOfTheWriteAheadLog1763903700000 implements MigrationInterface {
  name = "KeepRateLimitCountersOutOfTheWriteAheadLog1763903700000";

  async up(q: QueryRunner): Promise<void> {
    await q.query("ALTER TABLE rate_limits.counters SET UNLOGGED");
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query("ALTER TABLE rate_limits.counters SET LOGGED");
  }
}
