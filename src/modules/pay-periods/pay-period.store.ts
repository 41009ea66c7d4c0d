import { EntityManager } from "typeorm";
import { PayPeriod, PeriodTimesheet, TimesheetStatus } from "./pay-period.graphql";
import { PayFrequency, PaySchedule, PeriodDays } from "./pay-period.rules";

/** Weekly from a Monday, until the organization sets its schedule. */
export const DEFAULT_SCHEDULE: PaySchedule = { frequency: PayFrequency.WEEKLY, anchorDate: "2024-01-01" };

export async function selectSchedule(manager: EntityManager, organizationId: string): Promise<PaySchedule & { updatedAt: Date | null }> {
  const [row] = await manager.query("SELECT frequency, anchor_date::text AS anchor_date, updated_at FROM pay_schedules WHERE organization_id = $1", [
    organizationId,
  ]);
  return row ? { frequency: row.frequency, anchorDate: row.anchor_date, updatedAt: new Date(row.updated_at) } : { ...DEFAULT_SCHEDULE, updatedAt: null };
}

export async function saveSchedule(manager: EntityManager, organizationId: string, schedule: PaySchedule, now: Date): Promise<void> {
  await manager.query(
    `INSERT INTO pay_schedules (organization_id, frequency, anchor_date, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization_id) DO UPDATE SET frequency = EXCLUDED.frequency, anchor_date = EXCLUDED.anchor_date, updated_at = EXCLUDED.updated_at`,
    [organizationId, schedule.frequency, schedule.anchorDate, now],
  );
}

interface CloseRow {
  period_start: string;
  period_end: string;
  closed_at: Date;
  forced: boolean;
  reason: string | null;
  not_approved: string[];
}

export function presentPeriod(period: PeriodDays, close: CloseRow | undefined): PayPeriod {
  return {
    startDate: period.start,
    endDate: period.end,
    closed: Boolean(close),
    closedAt: close ? new Date(close.closed_at) : null,
    forced: close?.forced ?? false,
    reason: close?.reason ?? null,
    notApprovedStaffIds: close?.not_approved ?? [],
  };
}

/** The closes of periods starting in [from, to], by start date. */
export async function selectCloses(manager: EntityManager, organizationId: string, from: string, to: string): Promise<Map<string, CloseRow>> {
  const rows: CloseRow[] = await manager.query(
    `SELECT period_start::text AS period_start, period_end::text AS period_end, closed_at, forced, reason, not_approved
       FROM pay_period_closes WHERE organization_id = $1 AND period_start BETWEEN $2 AND $3`,
    [organizationId, from, to],
  );
  return new Map(rows.map((r) => [r.period_start, r]));
}

export async function insertClose(
  manager: EntityManager,
  organizationId: string,
  period: PeriodDays,
  close: { closedBy: string | null; forced: boolean; reason: string | null; notApproved: string[] },
  now: Date,
): Promise<boolean> {
  const rows: unknown[] = await manager.query(
    `INSERT INTO pay_period_closes (organization_id, period_start, period_end, closed_at, closed_by, forced, reason, not_approved)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::uuid[]) ON CONFLICT (organization_id, period_start) DO NOTHING RETURNING id`,
    [organizationId, period.start, period.end, now, close.closedBy, close.forced, close.reason, close.notApproved],
  );
  return rows.length > 0;
}

interface TimesheetRow {
  staff_id: string;
  status: TimesheetStatus | null;
  submitted_at: Date | null;
  approved_at: Date | null;
  approved_by: string | null;
  shift_count: string;
  open_shift_count: string;
  open_critical: string;
}

/** A shift's day is its start's local day at its location, as for day locks. */
const SHIFTS_OF_PERIOD = `FROM shifts s JOIN locations l ON l.organization_id = s.organization_id AND l.id = s.location_id
      WHERE s.organization_id = $1 AND s.employee_id = m.id AND s.deleted_at IS NULL AND (s.start_time AT TIME ZONE l.timezone)::date BETWEEN $2 AND $3`;

/**
 * One row per staff member (or the one asked) for the period: the timesheet's status, its shifts,
 * open shifts and OPEN critical exceptions. `lock` holds the staff members' rows against shift
 * writes (which share them) until commit, so that what approval checks stays true.
 */
export async function selectPeriodTimesheets(
  manager: EntityManager,
  organizationId: string,
  period: PeriodDays,
  options: { staffId?: string; lock?: boolean } = {},
): Promise<PeriodTimesheet[]> {
  const params: unknown[] = [organizationId, period.start, period.end];
  if (options.staffId) params.push(options.staffId);
  const rows: TimesheetRow[] = await manager.query(
    `SELECT m.id AS staff_id, t.status, t.submitted_at, t.approved_at, t.approved_by,
            (SELECT count(*) ${SHIFTS_OF_PERIOD}) AS shift_count,
            (SELECT count(*) ${SHIFTS_OF_PERIOD} AND s.end_time IS NULL) AS open_shift_count,
            (SELECT count(*) FROM attendance_exceptions x
              WHERE x.organization_id = $1 AND x.staff_id = m.id AND x.day BETWEEN $2 AND $3 AND x.status = 'OPEN' AND x.severity = 'critical') AS open_critical
       FROM staff_members m
       LEFT JOIN pay_period_timesheets t ON t.organization_id = m.organization_id AND t.staff_id = m.id AND t.period_start = $2
      WHERE m.organization_id = $1 AND m.deleted_at IS NULL${options.staffId ? " AND m.id = $4" : ""}
      ORDER BY m.name, m.id${options.lock ? " FOR NO KEY UPDATE OF m" : ""}`,
    params,
  );
  return rows.map((r) => ({
    staffId: r.staff_id,
    startDate: period.start,
    endDate: period.end,
    status: r.status ?? TimesheetStatus.OPEN,
    shiftCount: Number(r.shift_count),
    openShiftCount: Number(r.open_shift_count),
    openCriticalExceptions: Number(r.open_critical),
    submittedAt: r.submitted_at && new Date(r.submitted_at),
    approvedAt: r.approved_at && new Date(r.approved_at),
    approvedBy: r.approved_by,
  }));
}

export async function saveTimesheetStatus(
  manager: EntityManager,
  organizationId: string,
  staffId: string,
  period: PeriodDays,
  change: { status: TimesheetStatus; submittedAt?: Date | null; approvedAt?: Date | null; approvedBy?: string | null },
  now: Date,
): Promise<void> {
  await manager.query(
    `INSERT INTO pay_period_timesheets (organization_id, staff_id, period_start, period_end, status, submitted_at, approved_at, approved_by, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (organization_id, staff_id, period_start) DO UPDATE SET status = EXCLUDED.status,
       submitted_at = CASE WHEN $10 THEN EXCLUDED.submitted_at ELSE pay_period_timesheets.submitted_at END,
       approved_at = EXCLUDED.approved_at, approved_by = EXCLUDED.approved_by, updated_at = EXCLUDED.updated_at`,
    [
      organizationId,
      staffId,
      period.start,
      period.end,
      change.status,
      change.submittedAt ?? null,
      change.approvedAt ?? null,
      change.approvedBy ?? null,
      now,
      change.submittedAt !== undefined,
    ],
  );
}

/**
 * The first approved timesheet among the staff members' covering one of the days. With `lockStaff`,
 * takes a share lock on their rows first (a caller that holds them already need not): approval
 * holds them exclusively, so a shift write and an approval of the same person run one after the
 * other. The lock is a statement of its own, so that the read after it sees what a waited-for
 * approval committed.
 */
export async function approvedTimesheetAmong(
  manager: EntityManager,
  organizationId: string,
  staffIds: string[],
  days: string[],
  lockStaff: boolean,
): Promise<{ staff_id: string; period_start: string } | undefined> {
  if (!staffIds.length || !days.length) return undefined;
  if (lockStaff)
    await manager.query("SELECT id FROM staff_members WHERE organization_id = $1 AND id = ANY ($2::uuid[]) ORDER BY id FOR SHARE", [organizationId, staffIds]);
  const [row] = await manager.query(
    `SELECT staff_id, period_start::text AS period_start FROM pay_period_timesheets t
      WHERE organization_id = $1 AND staff_id = ANY ($2::uuid[]) AND status = 'APPROVED'
        AND EXISTS (SELECT 1 FROM unnest($3::date[]) AS d(day) WHERE d.day BETWEEN t.period_start AND t.period_end)
      LIMIT 1`,
    [organizationId, staffIds, days],
  );
  return row;
}
