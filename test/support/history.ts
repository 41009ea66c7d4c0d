import { TestService } from "./harness";

/** Whose entries: the organization, and the worker's location and role. */
export interface EntryOwner {
  organizationId: string;
  locationId: string;
  workerId: string;
  roleId: string;
}

/**
 * Years of a worker's published schedule written straight into the table: an 8-hour entry a day for
 * `days` days from `firstStart`, then ANALYZE, so that plans are chosen as for an organization with
 * a long history.
 */
export async function addPastEntries(t: TestService, owner: EntryOwner, firstStart: string, days: number): Promise<void> {
  await t.runtime.db.query(
    `INSERT INTO schedule_entries (organization_id, location_id, worker_id, role_id, start_time, end_time)
     SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::timestamptz + d * interval '1 day', $5::timestamptz + d * interval '1 day' + interval '8 hours'
       FROM generate_series(0, $6::int - 1) d`,
    [owner.organizationId, owner.locationId, owner.workerId, owner.roleId, firstStart, days],
  );
  await t.runtime.db.query("ANALYZE schedule_entries");
}
