import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A calendar feed shows its subject's live entries overlapping its window and the entries removed
 * lately. Asked as one test of `deleted_at IS NULL OR deleted_at >= …`, no index of entries applied
 * (each leaves removed entries out), so every fetch of every feed read the organization's whole
 * schedule, all its years, to answer a few weeks of one person or place. Live entries are now found
 * by their span (a worker's through the no-overlap constraint's index, a location's through this
 * one) and removed ones by when they were removed.
 */
export class IndexScheduleEntriesForCalendarFeeds1763903600000 implements MigrationInterface {
  name = "IndexScheduleEntriesForCalendarFeeds1763903600000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      "CREATE INDEX ix_schedule_entries_location_span ON schedule_entries USING gist (organization_id, location_id, tstzrange(start_time, end_time)) WHERE deleted_at IS NULL",
    );
    await q.query("CREATE INDEX ix_schedule_entries_removed ON schedule_entries (organization_id, deleted_at) WHERE deleted_at IS NOT NULL");
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query("DROP INDEX ix_schedule_entries_removed");
    await q.query("DROP INDEX ix_schedule_entries_location_span");
  }
}
