import { EntityManager } from "typeorm";
import { updateReturning } from "../../../database/returning";
import { AppError, invalidField } from "../../../errors/app-error";
import { BreakType } from "../../breaks";
import { localTime, localTimeAt, utcTimeAt, zoneOffsetMinutes } from "../../../common/local-time";
import { spanMinutes } from "../../../common/shift-minutes";
import { Shift, ShiftBreak } from "./shift.graphql";
import { findWhere } from "../../../common/entity-reads";

/**
 * The SQL of shifts, their breaks and locked days. Shifts are read with hand-written SQL and mapped here rather than hydrated
 * as entities: lists and exports of thousands of shifts are the hot path, and every computed
 * field needs the location's time zone and the lock state anyway.
 */

export interface ShiftRow {
  id: string;
  staff_id: string;
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
  /** The shift's breaks by start, read with it. */
  breaks: BreakRow[];
}

/**
 * A break as read with its shift, as a JSON array rather than an object (shorter to keep and cheaper for
 * Node to parse, a location-week holding hundreds): times in epoch milliseconds, whole milliseconds cut as
 * a JS Date holds them, the span first, so a row is a `BreakSpan` as it comes.
 */
export type BreakRow = readonly [
  startMs: number,
  /** Null while the break runs. */
  endMs: number | null,
  paid: boolean,
  id: string,
  breakTypeId: string | null,
  name: string,
  mandatory: boolean,
  frequencyMinutes: number,
  durationMinutes: number,
];

/** The local calendar day of a shift's start, in its location's zone. */
export const SHIFT_LOCAL_DAY = "(s.start_time AT TIME ZONE l.timezone)::date";

/**
 * A shift's breaks, selected as `breaks` from the one JSON list a trigger keeps of them (BreakRow,
 * migration KeepShiftBreakLists), which SHIFT_BREAKS_JOIN brings in: no aggregate per shift, and no
 * Date to parse per break. A shift whose breaks never changed has no list: none.
 */
export const SHIFT_BREAKS = "COALESCE(bl.breaks, '[]') AS breaks";
export const SHIFT_BREAKS_JOIN = "LEFT JOIN shift_break_lists bl ON bl.organization_id = s.organization_id AND bl.shift_id = s.id";

export const SHIFT_SELECT = `
  SELECT s.id, s.employee_id AS staff_id, s.location_id, s.role_id, s.start_time, s.end_time, s.hourly_wage, s.active,
         s.created_at, s.updated_at, s.deleted_at, l.timezone,
         EXISTS (SELECT 1 FROM locked_days d
                 WHERE d.organization_id = s.organization_id AND d.location_id = s.location_id AND d.day = ${SHIFT_LOCAL_DAY}) AS locked,
         ${SHIFT_BREAKS}
  FROM shifts s
  JOIN locations l ON l.organization_id = s.organization_id AND l.id = s.location_id
  ${SHIFT_BREAKS_JOIN}`;

export interface ShiftFilter {
  organizationId: string;
  /** Inclusive local days of the shift's start, `YYYY-MM-DD`. */
  startDate?: string;
  endDate?: string;
  locationId?: string;
  staffIds?: readonly string[];
}

/**
 * The WHERE clause of live shifts matching a filter. A day filter compares the local start day in
 * the shift's own zone, behind a UTC prefilter wide enough for any zone (UTC−12 … UTC+14) so the
 * start_time indexes still narrow the scan. With `localDays` false only the prefilter applies (up
 * to 14 hours either side of the days): for a caller that works each shift's local day out itself,
 * whose query then needs no location's zone.
 */
export function shiftWhere(filter: ShiftFilter, params: unknown[] = [], { localDays = true } = {}): { sql: string; params: unknown[] } {
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
    );
    if (localDays) where.push(`${SHIFT_LOCAL_DAY} BETWEEN ${from}::date AND ${to}::date`);
  }
  if (filter.locationId) where.push(`s.location_id = ${p(filter.locationId)}`);
  if (filter.staffIds) where.push(`s.employee_id = ANY(${p(filter.staffIds)}::uuid[])`);
  return { sql: `WHERE ${where.join(" AND ")}`, params };
}

export async function selectShifts(manager: EntityManager, filter: ShiftFilter, limit?: number): Promise<ShiftRow[]> {
  const { sql, params } = shiftWhere(filter);
  return manager.query(`${SHIFT_SELECT} ${sql} ORDER BY s.start_time, s.id${limit === undefined ? "" : ` LIMIT ${limit}`}`, params);
}

/** A range holding more shifts than one answer may (`Config.maxListedShifts`). */
export function tooManyShifts(limit: number): AppError {
  return invalidField(
    "endDate",
    `The range holds more than ${limit} shifts: narrow it, filter it by location or staff member, or stream it with GET /api/timesheets/export`,
  );
}

/** Shifts for an answer, refused past `limit`. */
export async function selectListedShifts(manager: EntityManager, filter: ShiftFilter, limit: number): Promise<ShiftRow[]> {
  const rows = await selectShifts(manager, filter, limit + 1);
  if (rows.length > limit) throw tooManyShifts(limit);
  return rows;
}

/** One shift of the organization by id, deleted ones included; `forUpdate` locks it (live ones only). */
export async function selectShift(manager: EntityManager, organizationId: string, id: string, forUpdate = false): Promise<ShiftRow | undefined> {
  const rows: ShiftRow[] = await manager.query(
    `${SHIFT_SELECT} WHERE s.organization_id = $1 AND s.id = $2${forUpdate ? " AND s.deleted_at IS NULL FOR UPDATE OF s" : ""}`,
    [organizationId, id],
  );
  return rows[0];
}

/** Shift rows as the API shows them. */
export function presentShifts(rows: ShiftRow[], now: Date): Shift[] {
  const nowMs = now.getTime();
  return rows.map((row) => presentShift(row, nowMs));
}

function presentBreak([startMs, endMs, paid, id, breakTypeId, name, mandatory, frequencyMinutes, durationMinutes]: BreakRow, zone: string): ShiftBreak {
  return {
    id,
    startTime: localTimeAt(startMs, zone),
    endTime: endMs === null ? null : localTimeAt(endMs, zone),
    typeId: breakTypeId,
    paid,
    name,
    mandatory,
    frequencyMinutes,
    durationInSettingsMinutes: durationMinutes,
  };
}

export function presentShift(row: ShiftRow, nowMs: number): Shift {
  const zone = row.timezone;
  const breaks = row.breaks;
  const minutes = spanMinutes(row.start_time.getTime(), row.end_time === null ? null : row.end_time.getTime(), breaks, nowMs);
  return {
    id: row.id,
    employeeId: row.staff_id,
    locationId: row.location_id,
    roleId: row.role_id,
    startTime: localTime(row.start_time, zone),
    endTime: row.end_time ? localTime(row.end_time, zone) : null,
    breaks: breaks.map((b) => presentBreak(b, zone)),
    hourlyWage: Number(row.hourly_wage),
    ...minutes,
    utcOffset: zoneOffsetMinutes(row.start_time, zone),
    timezone: zone,
    utcStartTime: utcTimeAt(row.start_time.getTime()),
    utcEndTime: row.end_time ? utcTimeAt(row.end_time.getTime()) : null,
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
export async function guardDays(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  days: string[],
  mode: "shared" | "exclusive",
): Promise<void> {
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

/** The distinct locked days in a range (of one location, if given). */
export async function selectLockedDays(
  manager: EntityManager,
  organizationId: string,
  startDate: string,
  endDate: string,
  locationId: string | undefined,
): Promise<string[]> {
  const rows: { day: string }[] = await manager.query(
    `SELECT DISTINCT day::text AS day FROM locked_days
     WHERE organization_id = $1 AND day BETWEEN $2::date AND $3::date AND ($4::uuid IS NULL OR location_id = $4::uuid) ORDER BY 1`,
    [organizationId, startDate, endDate, locationId ?? null],
  );
  return rows.map((r) => r.day);
}

/** A location of the organization with its time zone. */
export async function selectLocation(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
): Promise<{ locationId: string; timezone: string } | undefined> {
  const [row]: { id: string; timezone: string }[] = await manager.query("SELECT id, timezone FROM locations WHERE organization_id = $1 AND id = $2", [
    organizationId,
    locationId,
  ]);
  return row && { locationId: row.id, timezone: row.timezone };
}

/**
 * Where a new shift is worked, read at once: the location with its time zone, the role, and the staff
 * member's wage for the role (else the role's wage, else the staff member's own default). Undefined
 * for a location or role the organization does not have; a null id is not looked up.
 */
export async function selectPlaceOfWork(
  manager: EntityManager,
  organizationId: string,
  ids: { staffId: string | null; locationId: string; roleId: string | null },
): Promise<{ location: { locationId: string; timezone: string } | undefined; roleId: string | undefined; wage: string }> {
  const [row]: { location_id: string | null; timezone: string | null; role_id: string | null; wage: string | null }[] = await manager.query(
    `SELECT l.id AS location_id, l.timezone, r.id AS role_id,
            COALESCE((SELECT hourly_wage FROM staff_roles WHERE organization_id = $1 AND staff_id = $2 AND role_id = r.id),
                     r.hourly_wage,
                     (SELECT hourly_wage FROM staff_members WHERE organization_id = $1 AND id = $2)) AS wage
       FROM (SELECT 1) AS one
       LEFT JOIN locations l ON l.organization_id = $1 AND l.id = $3
       LEFT JOIN roles r ON r.organization_id = $1 AND r.id = $4`,
    [organizationId, ids.staffId, ids.locationId, ids.roleId],
  );
  return {
    location: row.location_id === null ? undefined : { locationId: row.location_id, timezone: row.timezone! },
    roleId: row.role_id ?? undefined,
    wage: row.wage ?? "0",
  };
}

/** The first live shift of the staff member overlapping a time span, other than `shiftId`. */
export async function selectOverlappingShift(
  manager: EntityManager,
  organizationId: string,
  span: { staffId: string; start: Date; end: Date | null; shiftId?: string },
): Promise<{ id: string; start_time: Date | string; end_time: Date | string | null; timezone: string } | undefined> {
  const [other] = await manager.query(
    `SELECT s.id, s.start_time, s.end_time, l.timezone FROM shifts s
     JOIN locations l ON l.organization_id = s.organization_id AND l.id = s.location_id
     WHERE s.organization_id = $1 AND s.employee_id = $2 AND s.deleted_at IS NULL AND s.id IS DISTINCT FROM $5::uuid
       AND tstzrange(s.start_time, s.end_time, '[)') && tstzrange($3, $4, '[)')
     ORDER BY s.start_time LIMIT 1`,
    [organizationId, span.staffId, span.start, span.end, span.shiftId ?? null],
  );
  return other;
}

export async function insertShift(
  manager: EntityManager,
  organizationId: string,
  shift: { staffId: string; locationId: string; roleId: string; start: Date; end: Date | null; wage: number | string },
): Promise<string> {
  const rows: { id: string }[] = await manager.query(
    `INSERT INTO shifts (organization_id, employee_id, location_id, role_id, start_time, end_time, hourly_wage, active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $6::timestamptz IS NULL) RETURNING id`,
    [organizationId, shift.staffId, shift.locationId, shift.roleId, shift.start, shift.end, shift.wage],
  );
  return rows[0].id;
}

/** New times, role and (when given) wage of a shift; an open shift stays active until it ends. */
export async function updateShift(
  manager: EntityManager,
  organizationId: string,
  shiftId: string,
  change: { start: Date; end: Date | null; roleId: string; wage: number | string | null },
): Promise<void> {
  await manager.query(
    `UPDATE shifts SET start_time = $3, end_time = $4, role_id = $5, hourly_wage = COALESCE($6, hourly_wage),
            active = active AND $4::timestamptz IS NULL, updated_at = now()
     WHERE organization_id = $1 AND id = $2`,
    [organizationId, shiftId, change.start, change.end, change.roleId, change.wage],
  );
}

/** Soft delete: answers the ids of the shifts that were live. */
export async function softDeleteShifts(manager: EntityManager, organizationId: string, ids: string[], now: Date): Promise<string[]> {
  const rows = await updateReturning<{ id: string }>(
    manager,
    "UPDATE shifts SET deleted_at = $3, active = false, updated_at = now() WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL RETURNING id",
    [organizationId, ids, now],
  );
  return rows.map((r) => r.id);
}

/** A break ready to be stored: times read, type defaults applied, checked against its shift. */
export interface NewBreak {
  breakTypeId: string | null;
  start: Date;
  end: Date | null;
  paid: boolean;
  name: string;
  mandatory: boolean;
  frequencyMinutes: number;
  durationMinutes: number;
}

export async function insertBreaks(manager: EntityManager, organizationId: string, shiftId: string, breaks: NewBreak[]): Promise<void> {
  if (!breaks.length) return;
  await manager.query(
    `INSERT INTO shift_breaks (organization_id, shift_id, break_type_id, start_time, end_time, paid, name, mandatory, frequency_minutes, duration_minutes)
       SELECT $1, $2, * FROM unnest($3::uuid[], $4::timestamptz[], $5::timestamptz[], $6::boolean[], $7::text[], $8::boolean[], $9::int[], $10::int[])`,
    [
      organizationId,
      shiftId,
      breaks.map((b) => b.breakTypeId),
      breaks.map((b) => b.start),
      breaks.map((b) => b.end),
      breaks.map((b) => b.paid),
      breaks.map((b) => b.name),
      breaks.map((b) => b.mandatory),
      breaks.map((b) => b.frequencyMinutes),
      breaks.map((b) => b.durationMinutes),
    ],
  );
}

export async function deleteBreaks(manager: EntityManager, organizationId: string, shiftId: string): Promise<void> {
  await manager.query("DELETE FROM shift_breaks WHERE organization_id = $1 AND shift_id = $2", [organizationId, shiftId]);
}

/** Ends the shift's running break, if any, at `end`. */
export async function closeRunningBreak(manager: EntityManager, organizationId: string, shiftId: string, end: Date): Promise<void> {
  await manager.query("UPDATE shift_breaks SET end_time = $3 WHERE organization_id = $1 AND shift_id = $2 AND end_time IS NULL", [
    organizationId,
    shiftId,
    end,
  ]);
}

/** The location's break types among `ids` that are not deleted. */
export function selectBreakTypes(manager: EntityManager, organizationId: string, locationId: string, ids: string[]): Promise<BreakType[]> {
  if (!ids.length) return Promise.resolve([]);
  return findWhere(manager, BreakType, "organization_id = $1 AND location_id = $2 AND id = ANY($3::uuid[]) AND deleted_at IS NULL", [
    organizationId,
    locationId,
    ids,
  ]);
}

/** The staff member's open shift (no end yet); `lock` holds it until commit. */
export async function selectOpenShift(manager: EntityManager, organizationId: string, staffId: string, lock: boolean): Promise<ShiftRow | undefined> {
  const rows: ShiftRow[] = await manager.query(
    `${SHIFT_SELECT} WHERE s.organization_id = $1 AND s.employee_id = $2 AND s.end_time IS NULL AND s.deleted_at IS NULL${lock ? " FOR UPDATE OF s" : ""}`,
    [organizationId, staffId],
  );
  return rows[0];
}

/** Clock-out: the shift ends and stops being active. */
export async function endShift(manager: EntityManager, organizationId: string, shiftId: string, at: Date): Promise<void> {
  await manager.query("UPDATE shifts SET end_time = $3, active = false, updated_at = now() WHERE organization_id = $1 AND id = $2", [
    organizationId,
    shiftId,
    at,
  ]);
}

export async function endBreak(manager: EntityManager, organizationId: string, breakId: string, at: Date): Promise<void> {
  await manager.query("UPDATE shift_breaks SET end_time = $3 WHERE organization_id = $1 AND id = $2", [organizationId, breakId, at]);
}

export async function lockDay(manager: EntityManager, organizationId: string, locationId: string, day: string, lockedBy: string | null): Promise<void> {
  await manager.query("INSERT INTO locked_days (organization_id, location_id, day, locked_by) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING", [
    organizationId,
    locationId,
    day,
    lockedBy,
  ]);
}

/** Locks every day of the list at every location of the organization (already locked days stay as they are). */
export async function lockDaysEverywhere(manager: EntityManager, organizationId: string, days: string[], lockedBy: string | null): Promise<void> {
  const locations: { id: string }[] = await manager.query("SELECT id FROM locations WHERE organization_id = $1 ORDER BY id", [organizationId]);
  for (const { id } of locations) await guardDays(manager, organizationId, id, days, "exclusive");
  await manager.query(
    `INSERT INTO locked_days (organization_id, location_id, day, locked_by)
     SELECT $1, l.id, d.day, $3 FROM locations l CROSS JOIN unnest($2::date[]) AS d(day) WHERE l.organization_id = $1
     ON CONFLICT DO NOTHING`,
    [organizationId, days, lockedBy],
  );
}

export async function unlockDay(manager: EntityManager, organizationId: string, locationId: string, day: string): Promise<void> {
  await manager.query("DELETE FROM locked_days WHERE organization_id = $1 AND location_id = $2 AND day = $3", [organizationId, locationId, day]);
}
