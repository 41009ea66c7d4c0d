import { DataSource } from "typeorm";
import { SnapshotQuery, textBatches } from "../../../database/cursor";
import { ShiftFilter, shiftWhere } from "../shifts/shift.store";

/** The SQL of the payroll export: the shifts it reads and the names it shows beside them. */

/** A staff member's names as the export shows them. */
export interface StaffNames {
  name: string;
  external_employee_id: string | null;
  payroll_id: string | null;
}

/** Names of the organization's staff, locations and roles, read once per export in the export's snapshot. */
export interface ExportNames {
  staff: Map<string, StaffNames>;
  locations: Map<string, { name: string; timezone: string }>;
  roles: Map<string, string>;
}

export async function readExportNames(query: SnapshotQuery, organizationId: string): Promise<ExportNames> {
  const byId = <R extends { id: string }>(rows: R[]) => new Map(rows.map((r) => [r.id, r]));
  const staff = await query<StaffNames & { id: string }>("SELECT id, name, external_employee_id, payroll_id FROM staff_members WHERE organization_id = $1", [
    organizationId,
  ]);
  const locations = await query<{ id: string; name: string; timezone: string }>("SELECT id, name, timezone FROM locations WHERE organization_id = $1", [
    organizationId,
  ]);
  const roles = await query<{ id: string; name: string }>("SELECT id, name FROM roles WHERE organization_id = $1", [organizationId]);
  return { staff: byId(staff), locations: byId(locations), roles: new Map(roles.map((r) => [r.id, r.name])) };
}

/**
 * Breaks as "start:end:paid;…" (epoch ms; end empty while open), only at locations with a
 * compliance profile (the meal rule reads them). $1 is the organization (shiftWhere's first
 * parameter): the list of such locations is then read once, not once per shift.
 */
const PROFILE_BREAKS = `COALESCE(CASE WHEN s.location_id IN (SELECT p.location_id FROM compliance_profiles p WHERE p.organization_id = $1) THEN
    (SELECT string_agg(epoch_ms(b.start_time) || ':' || COALESCE(epoch_ms(b.end_time)::text, '') || ':' || b.paid::text, ';') FROM shift_breaks b WHERE b.shift_id = s.id) END, '')`;

/**
 * A shift as the export reads it: one text value per row, its fields joined by commas. Every field
 * is a UUID, a timestamp, a number or the breaks' text (no commas, never null) and never null for
 * an ended shift (ck_shifts_break_totals_once_ended), so none holds a comma and concat_ws skips
 * none; the service then gets one string per shift instead of ten, which was most of a long
 * export's time in the service. Timestamps travel as PostgreSQL writes them (epoch arithmetic in
 * numeric cost the database more than the rest of the query). Names come from ExportNames.
 */
const EXPORT_SELECT = `
  SELECT concat_ws(',', s.id, s.employee_id, s.location_id, s.role_id, s.start_time, s.end_time,
                   s.hourly_wage, s.paid_break_ms, s.unpaid_break_ms, ${PROFILE_BREAKS}) AS value
  FROM shifts s`;

/**
 * Closed live shifts matching the filter, oldest first, in batches (textBatches: copied out of a
 * PostgreSQL server, through a cursor on PGlite): each shift's text holds id, staff, location,
 * role, start, end, wage, paid and unpaid break ms, and breaks, in that order (the four UUIDs
 * first, so each begins at a fixed place). The days are matched in UTC
 * only, by a prefilter wide enough for any zone: the caller works out each shift's local day (it
 * needs it anyway), which spares the database a location's zone per shift (looking the location up
 * for each row cost it more than the rest of the query). `before` reads in the same snapshot before
 * the shifts.
 */
export function exportedShifts(db: DataSource, filter: ShiftFilter, before: (query: SnapshotQuery) => Promise<void>): AsyncGenerator<string[]> {
  const { sql, params } = shiftWhere(filter, [], { localDays: false });
  return textBatches(db, `${EXPORT_SELECT} ${sql} AND s.end_time IS NOT NULL ORDER BY s.start_time, s.id`, params, { before });
}
