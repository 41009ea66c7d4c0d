import { DataSource } from "typeorm";
import { cursorBatches, SnapshotQuery } from "../../../database/cursor";
import { endedShiftMinutes, ShiftMinutes } from "../../../common/shift-minutes";
import type { PayrollNames } from "../../compliance";
import { BreakRow, SHIFT_BREAKS, SHIFT_BREAKS_JOIN, SHIFT_LOCAL_DAY, ShiftFilter, shiftWhere } from "../shifts/shift.store";

/** The SQL of the closed-shift read model: ended live shifts with the names payroll reports show beside them. */

/** A closed shift with what payroll reports need of it, its breaks included. */
export interface ClosedShift extends PayrollNames {
  id: string;
  staff_id: string;
  location_id: string;
  role_id: string;
  /** The local day it starts, YYYY-MM-DD. */
  day: string;
  start_time: Date;
  end_time: Date;
  hourly_wage: string;
  /** The database's totals of the shift's breaks, clipped to it (bigint text). */
  paid_break_ms: string;
  unpaid_break_ms: string;
  /** Its breaks by start, from the list the database keeps of them. */
  breaks: BreakRow[];
}

const CLOSED_SHIFT_SELECT = `
  SELECT s.id, s.employee_id AS staff_id, s.location_id, s.role_id, ${SHIFT_LOCAL_DAY}::text AS day, s.start_time, s.end_time, s.hourly_wage,
         s.paid_break_ms, s.unpaid_break_ms,
         l.timezone, l.name AS location_name, r.name AS role_name, e.name AS employee_name, e.external_employee_id, e.payroll_id,
         ${SHIFT_BREAKS}
  FROM shifts s
  JOIN locations l ON l.organization_id = s.organization_id AND l.id = s.location_id
  ${SHIFT_BREAKS_JOIN}
  JOIN roles r ON r.organization_id = s.organization_id AND r.id = s.role_id
  JOIN staff_members e ON e.organization_id = s.organization_id AND e.id = s.employee_id`;

/**
 * Closed live shifts matching the filter, in batches from a database cursor. On PGlite the cursor
 * holds the one connection: read everything else before iterating, or in `before` (same snapshot).
 */
export function closedShifts(
  db: DataSource,
  filter: ShiftFilter,
  orderBy: string,
  before?: (query: SnapshotQuery) => Promise<void>,
): AsyncGenerator<ClosedShift[]> {
  const { sql, params } = shiftWhere(filter);
  return cursorBatches<ClosedShift>(db, `${CLOSED_SHIFT_SELECT} ${sql} AND s.end_time IS NOT NULL ORDER BY ${orderBy}`, params, { before });
}

export function closedShiftBreaks(shift: ClosedShift) {
  return shift.breaks.map(([start, end, paid, , typeId]) => ({ start: new Date(start), end: end === null ? null : new Date(end), paid, typeId }));
}

export function closedShiftMinutes(shift: ClosedShift): ShiftMinutes {
  return endedShiftMinutes(shift.start_time.getTime(), shift.end_time.getTime(), Number(shift.paid_break_ms), Number(shift.unpaid_break_ms));
}
