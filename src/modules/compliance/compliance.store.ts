import { EntityManager } from "typeorm";
import type { PayrollNames } from "./compliance.types";
import { SnapshotQuery } from "../../database/cursor";
import { spanOverlaps } from "../../database/spans";
import { CompliancePreset, ComplianceFigures, ComplianceRules } from "./compliance-presets";
import { PlannedShift, ScheduleChange, TimeOffSpan } from "./compliance-rules";

/** A location's stored profile and the organization's workweek, in one read. */
export interface StoredProfile {
  preset: CompliancePreset;
  overrides: Partial<ComplianceFigures>;
  updatedAt: Date | null;
  weekStart: string;
}

export async function loadProfile(manager: EntityManager, organizationId: string, locationId: string): Promise<StoredProfile> {
  return (await loadProfiles(manager, organizationId, [locationId]))[0];
}

/** The stored profiles of several locations, in the order asked (NONE where a location has none): one statement. */
export async function loadProfiles(manager: EntityManager, organizationId: string, locationIds: readonly string[]): Promise<StoredProfile[]> {
  const rows: { preset: string | null; overrides: string | Partial<ComplianceFigures> | null; updated_at: Date | null; week_start: string }[] =
    await manager.query(
      `SELECT p.preset, p.overrides, p.updated_at,
              COALESCE((SELECT week_start FROM timesheet_settings WHERE organization_id = $1), 'Monday') AS week_start
         FROM unnest($2::uuid[]) WITH ORDINALITY AS l(id, n)
         LEFT JOIN compliance_profiles p ON p.organization_id = $1 AND p.location_id = l.id
        ORDER BY l.n`,
      [organizationId, [...locationIds]],
    );
  return rows.map((row) => ({
    preset: (row.preset ?? CompliancePreset.NONE) as CompliancePreset,
    overrides: typeof row.overrides === "string" ? JSON.parse(row.overrides) : (row.overrides ?? {}),
    updatedAt: row.updated_at ? new Date(row.updated_at) : null,
    weekStart: row.week_start,
  }));
}

export async function saveProfile(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  preset: CompliancePreset,
  overrides: Partial<ComplianceFigures>,
): Promise<void> {
  await manager.query(
    `INSERT INTO compliance_profiles (organization_id, location_id, preset, overrides) VALUES ($1, $2, $3, $4::jsonb)
     ON CONFLICT (organization_id, location_id) DO UPDATE SET preset = EXCLUDED.preset, overrides = EXCLUDED.overrides, updated_at = now()`,
    [organizationId, locationId, preset, JSON.stringify(overrides)],
  );
}

/** Joins giving `wage`: the worker's wage for the role, else the role's, else the worker's own (the rule shifts follow). */
const WAGE_OF = (staffId: string, role: string) => `
       LEFT JOIN staff_roles sr ON sr.organization_id = $1 AND sr.staff_id = ${staffId} AND sr.role_id = ${role}
       LEFT JOIN roles r ON r.organization_id = $1 AND r.id = ${role}
       LEFT JOIN staff_members s ON s.organization_id = $1 AND s.id = ${staffId}`;
const WAGE = "COALESCE(sr.hourly_wage, r.hourly_wage, s.hourly_wage, 0)::text";

interface PlanRow {
  id: string;
  entry_id: string | null;
  action: "ADD" | "CHANGE" | "REMOVE" | null;
  staff_id: string;
  start_ms: string;
  end_ms: string;
  before_start_ms: string | null;
  before_end_ms: string | null;
  checked: boolean;
  wage: string;
  breaks: { paid: boolean; minutes: number; start: string | null }[] | string | null;
}

/** What a check reads: the shifts as they will stand, the pending changes, and approved time off. */
export interface PlannedSchedule {
  shifts: PlannedShift[];
  changes: ScheduleChange[];
  timeOff: TimeOffSpan[];
}

/**
 * The schedule of everybody planned at the location in [from, to) once its drafts there are
 * published, with their other entries in [contextFrom, contextTo) (other days and locations,
 * for rest and weekly hours), in one statement; and their approved time off in a second.
 */
export async function loadPlannedSchedule(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  range: { from: Date; to: Date },
  context: { from: Date; to: Date },
): Promise<PlannedSchedule> {
  const rows: PlanRow[] = await manager.query(
    `WITH drafts AS (
       SELECT d.id, d.entry_id, d.action, d.worker_id, d.role_id, d.start_time, d.end_time
         FROM schedule_drafts d
        WHERE d.organization_id = $1 AND d.location_id = $2 AND d.start_time >= $3 AND d.start_time < $4
     ),
     workers AS (
       SELECT worker_id FROM schedule_entries
        WHERE organization_id = $1 AND location_id = $2 AND deleted_at IS NULL AND start_time >= $3 AND start_time < $4
       UNION
       SELECT worker_id FROM drafts
     ),
     plans AS (
       SELECT e.id, e.id AS entry_id, NULL::text AS action, e.worker_id, e.role_id, e.start_time, e.end_time,
              NULL::timestamptz AS before_start, NULL::timestamptz AS before_end,
              (e.location_id = $2 AND e.start_time >= $3 AND e.start_time < $4) AS checked,
              (SELECT json_agg(json_build_object('paid', b.paid, 'minutes', b.duration_minutes, 'start', epoch_ms(b.start_time)) ORDER BY b.position)
                 FROM schedule_breaks b WHERE b.entry_id = e.id) AS breaks
         FROM schedule_entries e
        WHERE e.organization_id = $1 AND e.deleted_at IS NULL AND e.start_time >= $5 AND e.start_time < $6
          AND e.worker_id IN (SELECT worker_id FROM workers)
          AND NOT EXISTS (SELECT 1 FROM drafts d WHERE d.entry_id = e.id)
       UNION ALL
       SELECT d.id, d.entry_id, d.action, d.worker_id, d.role_id, d.start_time, d.end_time,
              e.start_time, e.end_time, true,
              (SELECT json_agg(json_build_object('paid', b.paid, 'minutes', b.duration_minutes, 'start', epoch_ms(b.start_time)) ORDER BY b.position)
                 FROM schedule_breaks b WHERE b.draft_id = d.id)
         FROM drafts d
         LEFT JOIN schedule_entries e ON e.organization_id = $1 AND e.id = d.entry_id
     )
     SELECT p.id, p.entry_id, p.action, p.worker_id AS staff_id, epoch_ms(p.start_time) AS start_ms, epoch_ms(p.end_time) AS end_ms,
            epoch_ms(p.before_start) AS before_start_ms, epoch_ms(p.before_end) AS before_end_ms, p.checked, p.breaks,
            ${WAGE} AS wage
       FROM plans p ${WAGE_OF("p.worker_id", "p.role_id")}
      ORDER BY p.worker_id, p.start_time, p.id`,
    [organizationId, locationId, range.from, range.to, context.from, context.to],
  );
  const shifts: PlannedShift[] = [];
  const changes: ScheduleChange[] = [];
  for (const row of rows) {
    const span = { startsAt: new Date(Number(row.start_ms)), endsAt: new Date(Number(row.end_ms)) };
    if (row.action !== "REMOVE") {
      const breaks = (typeof row.breaks === "string" ? JSON.parse(row.breaks) : (row.breaks ?? [])) as Exclude<PlanRow["breaks"], string | null>;
      shifts.push({
        id: row.id,
        staffId: row.staff_id,
        ...span,
        breaks: breaks.map((b) => ({ paid: b.paid, durationMinutes: b.minutes, startsAt: b.start === null ? null : new Date(Number(b.start)) })),
        hourlyWage: row.wage,
        checked: row.checked,
      });
    }
    if (row.action !== null) {
      const before = row.before_start_ms === null ? null : { startsAt: new Date(Number(row.before_start_ms)), endsAt: new Date(Number(row.before_end_ms)) };
      changes.push({ id: row.id, staffId: row.staff_id, before, after: row.action === "REMOVE" ? null : span, hourlyWage: row.wage });
    }
  }
  const staffIds = [...new Set(rows.map((r) => r.staff_id))];
  const timeOff: { staff_id: string; start_time: Date; end_time: Date }[] = staffIds.length
    ? await manager.query(
        `SELECT worker_id AS staff_id, start_time, end_time FROM time_off_requests
          WHERE organization_id = $1 AND worker_id = ANY($2::uuid[]) AND status = 'approved' AND ${spanOverlaps("start_time", "end_time", "$3", "$4")}`,
        [organizationId, staffIds, context.from, context.to],
      )
    : [];
  return { shifts, changes, timeOff: timeOff.map((t) => ({ staffId: t.staff_id, startsAt: new Date(t.start_time), endsAt: new Date(t.end_time) })) };
}

/** The wage of each (staff member, role) pair, in order. */
export async function wagesOf(manager: EntityManager, organizationId: string, pairs: { staffId: string; roleId: string }[]): Promise<string[]> {
  const rows: { wage: string }[] = await manager.query(
    `SELECT ${WAGE} AS wage
       FROM unnest($2::uuid[], $3::uuid[]) WITH ORDINALITY AS p(staff_id, role_id, i) ${WAGE_OF("p.staff_id", "p.role_id")}
      ORDER BY p.i`,
    [organizationId, pairs.map((p) => p.staffId), pairs.map((p) => p.roleId)],
  );
  return rows.map((r) => r.wage);
}

export interface PredictabilityPayRow {
  entryId: string;
  staffId: string;
  shiftStart: Date;
  change: string;
  minutes: number;
  cents: number;
  citation: string;
}

export async function insertPredictabilityPay(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  changedAt: Date,
  rows: PredictabilityPayRow[],
): Promise<void> {
  if (!rows.length) return;
  await manager.query(
    `INSERT INTO predictability_pay (organization_id, location_id, entry_id, worker_id, shift_start, changed_at, change, hours, amount, citation)
     SELECT $1, $2, r.entry_id, r.worker_id, r.shift_start, $3, r.change, r.minutes / 60.0, r.cents / 100.0, r.citation
       FROM unnest($4::uuid[], $5::uuid[], $6::timestamptz[], $7::text[], $8::numeric[], $9::numeric[], $10::text[])
            AS r(entry_id, worker_id, shift_start, change, minutes, cents, citation)`,
    [
      organizationId,
      locationId,
      changedAt,
      rows.map((r) => r.entryId),
      rows.map((r) => r.staffId),
      rows.map((r) => r.shiftStart),
      rows.map((r) => r.change),
      rows.map((r) => r.minutes),
      rows.map((r) => r.cents),
      rows.map((r) => r.citation),
    ],
  );
}

export async function insertAcknowledgement(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  range: { start: string; end: string },
  reason: string,
  violations: unknown[],
): Promise<void> {
  await manager.query(
    `INSERT INTO compliance_acknowledgements (organization_id, location_id, start_date, end_date, reason, violations) VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
    [organizationId, locationId, range.start, range.end, reason, JSON.stringify(violations)],
  );
}

/** Every location's rules in force that has a profile (the others follow NONE). */
export async function selectLocationRules(query: SnapshotQuery, organizationId: string): Promise<Map<string, ComplianceRules>> {
  const rows = await query<{ location_id: string; preset: CompliancePreset; overrides: Partial<ComplianceFigures> | string }>(
    "SELECT location_id, preset, overrides FROM compliance_profiles WHERE organization_id = $1",
    [organizationId],
  );
  return new Map(rows.map((r) => [r.location_id, new ComplianceRules(r.preset, typeof r.overrides === "string" ? JSON.parse(r.overrides) : r.overrides)]));
}

/** Predictability pay recorded for a scheduled shift, with the names payroll shows. */
export interface RecordedPredictabilityPay extends PayrollNames {
  id: string;
  entry_id: string;
  worker_id: string;
  location_id: string;
  role_id: string;
  /** The local day (the location's) the scheduled shift started on before the change. */
  day: string;
  shift_start: Date;
  change: string;
  amount: string;
}

/**
 * The predictability pay recorded for scheduled shifts starting on the local days start..end, in
 * the order of those shifts. The UTC prefilter is wide enough for any zone, as for shifts.
 */
export function selectRecordedPredictabilityPay(
  query: SnapshotQuery,
  filter: { organizationId: string; startDate: string; endDate: string; locationId?: string; staffId?: string },
): Promise<RecordedPredictabilityPay[]> {
  const params: unknown[] = [filter.organizationId, filter.startDate, filter.endDate];
  const where = [
    "p.organization_id = $1",
    "p.shift_start >= ($2::date::timestamp AT TIME ZONE 'UTC') - interval '14 hours'",
    "p.shift_start < (($3::date + 1)::timestamp AT TIME ZONE 'UTC') + interval '12 hours'",
    "(p.shift_start AT TIME ZONE l.timezone)::date BETWEEN $2::date AND $3::date",
  ];
  if (filter.locationId) where.push(`p.location_id = $${params.push(filter.locationId)}`);
  if (filter.staffId) where.push(`p.worker_id = $${params.push(filter.staffId)}`);
  return query<RecordedPredictabilityPay>(
    `SELECT p.id, p.entry_id, p.worker_id, p.location_id, e.role_id, (p.shift_start AT TIME ZONE l.timezone)::date::text AS day,
            p.shift_start, p.change, p.amount::text AS amount, l.timezone, l.name AS location_name, r.name AS role_name,
            s.name AS employee_name, s.external_employee_id, s.payroll_id
       FROM predictability_pay p
       JOIN locations l ON l.organization_id = p.organization_id AND l.id = p.location_id
       JOIN schedule_entries e ON e.organization_id = p.organization_id AND e.id = p.entry_id
       JOIN roles r ON r.organization_id = p.organization_id AND r.id = e.role_id
       JOIN staff_members s ON s.organization_id = p.organization_id AND s.id = p.worker_id
      WHERE ${where.join(" AND ")}
      ORDER BY p.shift_start, p.id`,
    params,
  );
}
