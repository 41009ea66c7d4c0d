import { Runtime } from "../src/app/runtime";
import { Actor } from "../src/auth/actor";
import { ALL_PERMISSIONS } from "../src/auth/permissions";
import { addDays, localDate } from "../src/common/time";
import { CompliancePreset } from "../src/modules/compliance/compliance-presets";

const WORKERS = 50;
const DAYS = 28;
const ROUNDS = 30;

/**
 * The compliance check of a 50-worker, 4-week range at one location (target: within 200 ms): every
 * worker has a published entry each day, with a planned unpaid break, closing (15:00–23:00) and
 * opening (07:00–15:00) on alternate days so that rest gaps abound; one entry in ten has a CHANGE
 * draft, starting tomorrow so the first two weeks fall in the notice window. Answers the line to print.
 */
export async function benchComplianceCheck(runtime: Runtime, organizationId: string, locationId: string): Promise<string> {
  const actor: Actor = { organizationId, apiKeyId: "bench", staffId: null, permissions: new Set(ALL_PERMISSIONS) };
  const [{ timezone }] = await runtime.db.query("SELECT timezone FROM locations WHERE id = $1", [locationId]);
  const firstDay = addDays(localDate(runtime.clock.now(), timezone), 1);
  await runtime.db.transaction(async (m) => {
    const [{ id: breakType }] = await m.query(
      "INSERT INTO break_types (organization_id, location_id, name, duration_minutes, paid) VALUES ($1, $2, 'Meal', 30, false) RETURNING id",
      [organizationId, locationId],
    );
    await m.query(
      // Its own location's staff first, then those of the locations after it in id order: the other
      // parts of the bench plan their people at the first locations, whose days this must not fill.
      `WITH w AS (SELECT s.id, row_number() OVER (ORDER BY sl.location_id DESC, s.id) AS n, r.role_id
                    FROM staff_members s JOIN staff_roles r ON r.staff_id = s.id JOIN staff_locations sl ON sl.staff_id = s.id
                   WHERE s.organization_id = $1 ORDER BY sl.location_id DESC, s.id LIMIT $4)
       INSERT INTO schedule_entries (organization_id, location_id, worker_id, role_id, start_time, end_time)
       SELECT $1, $2, w.id, w.role_id,
              (($3::date + d) + CASE WHEN (w.n + d) % 2 = 0 THEN time '15:00' ELSE time '07:00' END) AT TIME ZONE l.timezone,
              (($3::date + d) + CASE WHEN (w.n + d) % 2 = 0 THEN time '23:00' ELSE time '15:00' END) AT TIME ZONE l.timezone
         FROM w CROSS JOIN generate_series(0, $5 - 1) d JOIN locations l ON l.id = $2`,
      [organizationId, locationId, firstDay, WORKERS, DAYS],
    );
    await m.query(
      `INSERT INTO schedule_breaks (organization_id, entry_id, break_type_id, name, paid, duration_minutes, start_time, position)
       SELECT organization_id, id, $3, 'Meal', false, 30, start_time + interval '4 hours', 0
         FROM schedule_entries WHERE organization_id = $1 AND location_id = $2`,
      [organizationId, locationId, breakType],
    );
    await m.query(
      `INSERT INTO schedule_drafts (organization_id, location_id, action, entry_id, worker_id, role_id, start_time, end_time)
       SELECT organization_id, location_id, 'CHANGE', id, worker_id, role_id, start_time + interval '1 hour', end_time
         FROM (SELECT e.*, row_number() OVER (ORDER BY id) AS n FROM schedule_entries e WHERE organization_id = $1 AND location_id = $2) e
        WHERE n % 10 = 0`,
      [organizationId, locationId],
    );
  });
  await runtime.db.query("ANALYZE schedule_entries; ANALYZE schedule_drafts; ANALYZE schedule_breaks");
  await runtime.services.compliance.updateProfile(actor, locationId, { preset: CompliancePreset.US_OR, maxShiftHours: 12, maxWeeklyHours: 40 });
  const range = { startDate: firstDay, endDate: addDays(firstDay, DAYS - 1) };
  const times: number[] = [];
  let violations = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    violations = (await runtime.services.compliance.check(actor, locationId, range)).violations.length;
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  const [p50, worst] = [times[Math.floor(ROUNDS / 2)], times[ROUNDS - 1]];
  return (
    `compliance check, ${WORKERS} workers × ${DAYS} days (${WORKERS * DAYS} entries, ${(WORKERS * DAYS) / 10} drafts, ${violations} violations), ${ROUNDS} rounds in-process: ` +
    `median ${p50.toFixed(1)} ms, slowest ${worst.toFixed(1)} ms (target ≤ 200 ms)`
  );
}
