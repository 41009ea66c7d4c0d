import { EntityManager } from "typeorm";
import { matchedEntrySql } from "../attendance.store";
import { AttendanceException, AttendanceExceptionKind, AttendanceExceptionStatus, severityOf } from "./attendance-exception.graphql";

interface ExceptionRow {
  id: string;
  kind: AttendanceExceptionKind;
  severity: string;
  staff_id: string;
  location_id: string;
  entry_id: string | null;
  shift_id: string | null;
  day: string;
  minutes: number | null;
  message: string;
  detected_at: Date;
  status: AttendanceExceptionStatus;
  resolution_note: string | null;
  resolved_by: string | null;
  resolved_at: Date | null;
  updated_at: Date;
}

const COLUMNS = `id, kind, severity, staff_id, location_id, entry_id, shift_id, day::text AS day, minutes, message, detected_at, status,
                 resolution_note, resolved_by, resolved_at, updated_at`;

function present(row: ExceptionRow): AttendanceException {
  return {
    id: row.id,
    kind: row.kind,
    severity: row.severity,
    staffId: row.staff_id,
    locationId: row.location_id,
    entryId: row.entry_id,
    shiftId: row.shift_id,
    date: row.day,
    minutes: row.minutes,
    message: row.message,
    detectedAt: new Date(row.detected_at),
    status: row.status,
    resolution: row.resolved_at ? { note: row.resolution_note ?? "", resolvedBy: row.resolved_by, resolvedAt: new Date(row.resolved_at) } : null,
    updatedAt: new Date(row.updated_at),
  };
}

/** One exception found at a punch, against its shift. */
export interface FoundException {
  kind: AttendanceExceptionKind;
  staffId: string;
  locationId: string;
  shiftId: string;
  entryId: string | null;
  day: string;
  minutes: number | null;
  message: string;
}

/** Records the exceptions; one already recorded for the shift and kind stays as it is. */
export async function insertExceptions(manager: EntityManager, organizationId: string, found: FoundException[], now: Date): Promise<void> {
  if (!found.length) return;
  await manager.query(
    `INSERT INTO attendance_exceptions (organization_id, kind, severity, staff_id, location_id, shift_id, entry_id, subject_id, day, minutes, message, detected_at)
     SELECT $1, f.kind, f.severity, f.staff_id, f.location_id, f.shift_id, f.entry_id, f.shift_id, f.day, f.minutes, f.message, $3
       FROM jsonb_to_recordset($2::jsonb) AS f(kind text, severity text, staff_id uuid, location_id uuid, shift_id uuid, entry_id uuid, day date, minutes integer, message text)
     ON CONFLICT (organization_id, subject_id, kind) DO NOTHING`,
    [
      organizationId,
      JSON.stringify(
        found.map((f) => ({
          kind: f.kind,
          severity: severityOf(f.kind),
          staff_id: f.staffId,
          location_id: f.locationId,
          shift_id: f.shiftId,
          entry_id: f.entryId,
          day: f.day,
          minutes: f.minutes,
          message: f.message,
        })),
      ),
      now,
    ],
  );
}

export interface ExceptionFilter {
  startDate: string;
  endDate: string;
  kind?: AttendanceExceptionKind;
  status?: AttendanceExceptionStatus;
  staffId?: string;
  locationId?: string;
  /** Keyset: rows after this (detected_at, id). */
  after?: [string, string];
}

export async function selectExceptions(manager: EntityManager, organizationId: string, filter: ExceptionFilter, limit: number): Promise<AttendanceException[]> {
  const params: unknown[] = [organizationId, filter.startDate, filter.endDate];
  const where = ["organization_id = $1", "day BETWEEN $2 AND $3"];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace("?", `$${params.length}`));
  };
  if (filter.kind) add("kind = ?", filter.kind);
  if (filter.status) add("status = ?", filter.status);
  if (filter.staffId) add("staff_id = ?", filter.staffId);
  if (filter.locationId) add("location_id = ?", filter.locationId);
  if (filter.after) {
    params.push(filter.after[0], filter.after[1]);
    where.push(`(detected_at, id) > ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  params.push(limit);
  const rows: ExceptionRow[] = await manager.query(
    `SELECT ${COLUMNS} FROM attendance_exceptions WHERE ${where.join(" AND ")} ORDER BY detected_at, id LIMIT $${params.length}`,
    params,
  );
  return rows.map(present);
}

export async function selectException(manager: EntityManager, organizationId: string, id: string, lock = false): Promise<AttendanceException | undefined> {
  const [row]: ExceptionRow[] = await manager.query(
    `SELECT ${COLUMNS} FROM attendance_exceptions WHERE organization_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`,
    [organizationId, id],
  );
  return row && present(row);
}

export async function resolveException(
  manager: EntityManager,
  organizationId: string,
  id: string,
  resolution: { status: AttendanceExceptionStatus; note: string; resolvedBy: string | null },
  now: Date,
): Promise<void> {
  await manager.query(
    `UPDATE attendance_exceptions SET status = $3, resolution_note = $4, resolved_by = $5, resolved_at = $6, updated_at = $6
      WHERE organization_id = $1 AND id = $2`,
    [organizationId, id, resolution.status, resolution.note, resolution.resolvedBy, now],
  );
}

/** Staff members of the list holding an OPEN critical exception on a day of the range: what holds up approval. */
export async function staffWithOpenCritical(
  manager: EntityManager,
  organizationId: string,
  staffIds: string[],
  startDate: string,
  endDate: string,
): Promise<Map<string, number>> {
  const rows: { staff_id: string; n: string }[] = await manager.query(
    `SELECT staff_id, count(*) AS n FROM attendance_exceptions
      WHERE organization_id = $1 AND staff_id = ANY ($2::uuid[]) AND day BETWEEN $3 AND $4 AND status = 'OPEN' AND severity = 'critical'
      GROUP BY staff_id`,
    [organizationId, staffIds, startDate, endDate],
  );
  return new Map(rows.map((r) => [r.staff_id, Number(r.n)]));
}

/** Entries that lie this far back are no longer looked at by the detection job. */
const LOOKBACK = "interval '7 days'";

/**
 * NO_SHOW: a published entry of an organization with a policy, started more than noShowAfterMinutes
 * ago, that no shift of its worker overlaps. One statement for every organization; a second finder
 * (another process) inserts nothing: the unique key and ON CONFLICT DO NOTHING.
 */
export async function insertNoShows(manager: EntityManager, now: Date): Promise<number> {
  const rows: unknown[] = await manager.query(
    `INSERT INTO attendance_exceptions (organization_id, kind, severity, staff_id, location_id, entry_id, subject_id, day, message, detected_at)
     SELECT e.organization_id, 'NO_SHOW', 'critical', e.worker_id, e.location_id, e.id, e.id, (e.start_time AT TIME ZONE l.timezone)::date,
            'No clock-in within ' || p.no_show_after_minutes || ' minutes of the scheduled start', $1
       FROM attendance_policies p
       JOIN schedule_entries e ON e.organization_id = p.organization_id AND e.deleted_at IS NULL
        AND e.start_time > $1::timestamptz - ${LOOKBACK} AND e.start_time <= $1::timestamptz - make_interval(mins => p.no_show_after_minutes)
       JOIN locations l ON l.organization_id = e.organization_id AND l.id = e.location_id
      WHERE NOT EXISTS (SELECT 1 FROM shifts s
                         WHERE s.organization_id = e.organization_id AND s.employee_id = e.worker_id AND s.deleted_at IS NULL
                           -- An open shift's range has no end. By span, in the worker's index of shift ranges.
                           AND tstzrange(s.start_time, s.end_time, '[)') && tstzrange(e.start_time, e.end_time, '[)'))
        AND NOT EXISTS (SELECT 1 FROM attendance_exceptions x WHERE x.organization_id = e.organization_id AND x.subject_id = e.id AND x.kind = 'NO_SHOW')
     ON CONFLICT (organization_id, subject_id, kind) DO NOTHING
     RETURNING id`,
    [now],
  );
  return rows.length;
}

/**
 * MISSED_CLOCK_OUT: a shift still open missedClockOutAfterMinutes after its scheduled end (the
 * entry it started against), or after its start plus longShiftHours without one.
 */
export async function insertMissedClockOuts(manager: EntityManager, now: Date): Promise<number> {
  const rows: unknown[] = await manager.query(
    `INSERT INTO attendance_exceptions (organization_id, kind, severity, staff_id, location_id, shift_id, entry_id, subject_id, day, message, detected_at)
     SELECT s.organization_id, 'MISSED_CLOCK_OUT', 'critical', s.employee_id, s.location_id, s.id, e.id, s.id, (s.start_time AT TIME ZONE l.timezone)::date,
            CASE WHEN e.id IS NULL THEN 'Still clocked in ' || p.long_shift_hours::float8 || ' hours after clocking in, and '
                 ELSE 'Still clocked in after the scheduled end, and ' END || p.missed_clock_out_after_minutes || ' minutes more', $1
       FROM attendance_policies p
       JOIN shifts s ON s.organization_id = p.organization_id AND s.deleted_at IS NULL AND s.end_time IS NULL
       JOIN locations l ON l.organization_id = s.organization_id AND l.id = s.location_id
       LEFT JOIN LATERAL (${matchedEntrySql("x.id, x.end_time", "s.organization_id", "s.employee_id", "s.start_time")}) e ON true
      WHERE COALESCE(e.end_time, s.start_time + p.long_shift_hours * interval '1 hour') + make_interval(mins => p.missed_clock_out_after_minutes) <= $1
     ON CONFLICT (organization_id, subject_id, kind) DO NOTHING
     RETURNING id`,
    [now],
  );
  return rows.length;
}

/** Mandatory break types of the location the shift, `workedMinutes` long, went without (none of that type, at least its duration). */
export async function missedBreakTypes(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  shiftId: string,
  workedMinutes: number,
): Promise<{ name: string; frequency: number; duration: number }[]> {
  return manager.query(
    `SELECT bt.name, bt.frequency_minutes AS frequency, bt.duration_minutes AS duration FROM break_types bt
      WHERE bt.organization_id = $1 AND bt.location_id = $2 AND bt.mandatory AND bt.enabled AND bt.deleted_at IS NULL
        AND bt.frequency_minutes > 0 AND bt.frequency_minutes < $4
        AND NOT EXISTS (SELECT 1 FROM shift_breaks b WHERE b.organization_id = $1 AND b.shift_id = $3 AND b.break_type_id = bt.id
                           AND b.end_time IS NOT NULL AND b.end_time - b.start_time >= make_interval(mins => bt.duration_minutes))
      ORDER BY bt.name`,
    [organizationId, locationId, shiftId, workedMinutes],
  );
}
