import { EntityManager } from "typeorm";
import { formatUtc } from "../../common/time";
import { groupByKeys } from "../../loaders/loaders";
import { localTime, zoneOffsetMinutes } from "./local-time";
import { shiftMinutes } from "./shift-minutes";
import { Shift, ShiftBreak } from "./shift.types";

/**
 * SQL of shift reads. Shifts are read with hand-written SQL and mapped here rather than hydrated
 * as entities: lists and exports of thousands of shifts are the hot path, and every computed
 * field needs the location's time zone and the lock state anyway.
 */

export interface ShiftRow {
  id: string;
  employee_id: string;
  location_id: string;
  role_id: string;
  start_time: Date;
  end_time: Date | null;
  hourly_wage: string;
  active: boolean;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  timezone: string;
  locked: boolean;
}

export interface BreakRow {
  id: string;
  shift_id: string;
  break_type_id: string | null;
  start_time: Date;
  end_time: Date | null;
  paid: boolean;
  name: string;
  mandatory: boolean;
  frequency_minutes: number;
  duration_minutes: number;
}

/** The local calendar day of a shift's start, in its location's zone. */
export const SHIFT_LOCAL_DAY = "(s.start_time AT TIME ZONE l.timezone)::date";

export const SHIFT_SELECT = `
  SELECT s.id, s.employee_id, s.location_id, s.role_id, s.start_time, s.end_time, s.hourly_wage, s.active,
         s.created_at, s.updated_at, s.deleted_at, l.timezone,
         EXISTS (SELECT 1 FROM locked_days d
                 WHERE d.organization_id = s.organization_id AND d.location_id = s.location_id AND d.day = ${SHIFT_LOCAL_DAY}) AS locked
  FROM shifts s
  JOIN locations l ON l.organization_id = s.organization_id AND l.id = s.location_id`;

export interface ShiftFilter {
  organizationId: string;
  /** Inclusive local days of the shift's start, `YYYY-MM-DD`. */
  startDate?: string;
  endDate?: string;
  locationId?: string;
  employeeIds?: readonly string[];
}

/**
 * The WHERE clause of live shifts matching a filter. A day filter compares the local start day in
 * the shift's own zone, behind a UTC prefilter wide enough for any zone (UTC−12 … UTC+14) so the
 * start_time indexes still narrow the scan.
 */
export function shiftWhere(filter: ShiftFilter, params: unknown[] = []): { sql: string; params: unknown[] } {
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = [`s.organization_id = ${p(filter.organizationId)}`, "s.deleted_at IS NULL"];
  if (filter.startDate && filter.endDate) {
    const from = p(filter.startDate);
    const to = p(filter.endDate);
    where.push(
      `s.start_time >= (${from}::date::timestamp AT TIME ZONE 'UTC') - interval '14 hours'`,
      `s.start_time < ((${to}::date + 1)::timestamp AT TIME ZONE 'UTC') + interval '12 hours'`,
      `${SHIFT_LOCAL_DAY} BETWEEN ${from}::date AND ${to}::date`,
    );
  }
  if (filter.locationId) where.push(`s.location_id = ${p(filter.locationId)}`);
  if (filter.employeeIds) where.push(`s.employee_id = ANY(${p(filter.employeeIds)}::uuid[])`);
  return { sql: `WHERE ${where.join(" AND ")}`, params };
}

export async function selectShifts(manager: EntityManager, filter: ShiftFilter): Promise<ShiftRow[]> {
  const { sql, params } = shiftWhere(filter);
  return manager.query(`${SHIFT_SELECT} ${sql} ORDER BY s.start_time, s.id`, params);
}

/** One shift of the organization by id, deleted ones included; `forUpdate` locks it (live ones only). */
export async function selectShift(manager: EntityManager, organizationId: string, id: string, forUpdate = false): Promise<ShiftRow | undefined> {
  const rows: ShiftRow[] = await manager.query(
    `${SHIFT_SELECT} WHERE s.organization_id = $1 AND s.id = $2${forUpdate ? " AND s.deleted_at IS NULL FOR UPDATE OF s" : ""}`,
    [organizationId, id],
  );
  return rows[0];
}

export async function selectBreaks(manager: EntityManager, organizationId: string, shiftIds: readonly string[]): Promise<BreakRow[][]> {
  if (!shiftIds.length) return [];
  const rows: BreakRow[] = await manager.query(
    `SELECT id, shift_id, break_type_id, start_time, end_time, paid, name, mandatory, frequency_minutes, duration_minutes
     FROM shift_breaks WHERE organization_id = $1 AND shift_id = ANY($2::uuid[]) ORDER BY shift_id, start_time`,
    [organizationId, shiftIds],
  );
  return groupByKeys(shiftIds, rows, (b) => b.shift_id);
}

/** Shift rows with their breaks, as the API shows them. */
export async function loadShifts(manager: EntityManager, organizationId: string, rows: ShiftRow[], now: Date): Promise<Shift[]> {
  const breaks = await selectBreaks(manager, organizationId, rows.map((r) => r.id));
  return rows.map((row, i) => presentShift(row, breaks[i], now));
}

function presentBreak(b: BreakRow, zone: string): ShiftBreak {
  return {
    id: b.id,
    startTime: localTime(b.start_time, zone),
    endTime: b.end_time ? localTime(b.end_time, zone) : null,
    typeId: b.break_type_id,
    paid: b.paid,
    name: b.name,
    mandatory: b.mandatory,
    frequencyMinutes: b.frequency_minutes,
    durationInSettingsMinutes: b.duration_minutes,
  };
}

export function presentShift(row: ShiftRow, breaks: BreakRow[], now: Date): Shift {
  const zone = row.timezone;
  const minutes = shiftMinutes(row.start_time, row.end_time, breaks.map((b) => ({ start: b.start_time, end: b.end_time, paid: b.paid })), now);
  return {
    id: row.id,
    employeeId: row.employee_id,
    locationId: row.location_id,
    roleId: row.role_id,
    startTime: localTime(row.start_time, zone),
    endTime: row.end_time ? localTime(row.end_time, zone) : null,
    breaks: breaks.map((b) => presentBreak(b, zone)),
    hourlyWage: Number(row.hourly_wage),
    ...minutes,
    utcOffset: zoneOffsetMinutes(row.start_time, zone),
    timezone: zone,
    utcStartTime: formatUtc(row.start_time),
    utcEndTime: row.end_time ? formatUtc(row.end_time) : null,
    locked: row.locked,
    active: row.active,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  };
}

/**
 * Serializes changes to the given days of a location against locking and unlocking them: shift
 * writes hold the days' advisory locks shared, lock/unlock exclusively, so no shift change slips
 * past a lock being taken. Keys are sorted so two transactions never wait on each other in a cycle.
 */
export async function guardDays(manager: EntityManager, organizationId: string, locationId: string, days: string[], mode: "shared" | "exclusive"): Promise<void> {
  const keys = [...new Set(days)].sort().map((day) => `${organizationId}:${locationId}:${day}`);
  if (!keys.length) return;
  const fn = mode === "shared" ? "pg_advisory_xact_lock_shared" : "pg_advisory_xact_lock";
  await manager.query(`SELECT ${fn}(hashtextextended(k, 0)) FROM unnest($1::text[]) WITH ORDINALITY AS t(k, n) ORDER BY n`, [keys]);
}

/** Which of the days are locked for the location. */
export async function lockedAmong(manager: EntityManager, organizationId: string, locationId: string, days: string[]): Promise<string[]> {
  if (!days.length) return [];
  const rows: { day: string }[] = await manager.query(
    "SELECT day::text AS day FROM locked_days WHERE organization_id = $1 AND location_id = $2 AND day = ANY($3::date[]) ORDER BY day",
    [organizationId, locationId, days],
  );
  return rows.map((r) => r.day);
}
