import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { Actor, requirePermission } from "../../auth/actor";
import { isUuid } from "../../common/ids";
import { parseDateRange } from "../../common/time";
import { ServiceDeps } from "../../common/services";
import { invalidField } from "../../errors/app-error";
import { cursorBatches, SnapshotQuery } from "../../database/cursor";
import { timestamptzMs } from "../../database/timestamp-parser";
import { localTimeAt } from "./local-time";
import { payCents } from "../../common/money";
import { endedShiftMinutes, minutesToHours } from "./shift-minutes";
import { MAX_LISTED_SHIFTS, shiftWhere, tooManyShifts } from "./shift.store";

@ObjectType({ simpleResolvers: true, description: "One closed shift as a payroll system takes it" })
export class ShiftExportRow {
  @Field(() => ID)
  shiftId: string;

  @Field()
  employee: string;

  @Field(() => String, { nullable: true })
  externalEmployeeId: string | null;

  @Field(() => String, { nullable: true })
  payrollId: string | null;

  @Field()
  location: string;

  @Field()
  role: string;

  @Field({ description: "YYYY-MM-DD, the local day the shift starts" })
  date: string;

  @Field()
  startTime: string;

  @Field()
  endTime: string;

  @Field(() => Int)
  durationMinutes: number;

  @Field(() => Int)
  paidBreakMinutes: number;

  @Field(() => Int)
  unpaidBreakMinutes: number;

  @Field(() => Int, { description: "Duration less unpaid breaks, in whole minutes" })
  payableMinutes: number;

  @Field(() => Float, { description: "payableMinutes / 60, to two decimals (for reading; pay uses the minutes)" })
  payableHours: number;

  @Field(() => Float, { description: "The wage as stored, up to four decimals" })
  hourlyWage: number;

  @Field(() => Float, { description: "payableMinutes × hourlyWage / 60, rounded once to the cent (half away from zero)" })
  pay: number;
}

export interface ExportFilter {
  startDate: string;
  endDate: string;
  locationId?: string;
  employeeId?: string;
}

/** Names of the organization's staff, locations and roles, read once per export in the export's snapshot. */
interface ExportNames {
  staff: Map<string, { name: string; external_employee_id: string | null; payroll_id: string | null }>;
  locations: Map<string, { name: string; timezone: string }>;
  roles: Map<string, string>;
}

async function readExportNames(query: SnapshotQuery, organizationId: string): Promise<ExportNames> {
  const byId = <R extends { id: string }>(rows: R[]) => new Map(rows.map((r) => [r.id, r]));
  const staff = await query<{ id: string; name: string; external_employee_id: string | null; payroll_id: string | null }>(
    "SELECT id, name, external_employee_id, payroll_id FROM staff_members WHERE organization_id = $1",
    [organizationId],
  );
  const locations = await query<{ id: string; name: string; timezone: string }>("SELECT id, name, timezone FROM locations WHERE organization_id = $1", [organizationId]);
  const roles = await query<{ id: string; name: string }>("SELECT id, name FROM roles WHERE organization_id = $1", [organizationId]);
  return { staff: byId(staff), locations: byId(locations), roles: new Map(roles.map((r) => [r.id, r.name])) };
}

/**
 * A shift as the export reads it: one text value per row, its fields joined by commas. Every field
 * is a UUID, a timestamp or a number and never null for an ended shift (ck_shifts_break_totals_once_ended),
 * so none holds a comma and concat_ws skips none; the driver then makes one string per
 * row instead of nine, which was most of a long export's time in the service. Timestamps travel as
 * PostgreSQL writes them (epoch arithmetic in numeric cost the database more than the rest of the
 * query). Names come from ExportNames.
 */
const EXPORT_SELECT = `
  SELECT concat_ws(',', s.id, s.employee_id, s.location_id, s.role_id, s.start_time, s.end_time,
                   s.hourly_wage, s.paid_break_ms, s.unpaid_break_ms) AS shift
  FROM shifts s
  JOIN locations l ON l.organization_id = s.organization_id AND l.id = s.location_id`;

function toExportRow(shift: string, names: ExportNames): ShiftExportRow {
  const [shiftId, employeeId, locationId, roleId, startText, endText, hourlyWage, paidText, unpaidText] = shift.split(",");
  const employee = names.staff.get(employeeId)!;
  const location = names.locations.get(locationId)!;
  const start = timestamptzMs(startText);
  const end = timestamptzMs(endText);
  const minutes = endedShiftMinutes(start, end, Number(paidText), Number(unpaidText));
  const startTime = localTimeAt(start, location.timezone);
  return {
    shiftId,
    employee: employee.name,
    externalEmployeeId: employee.external_employee_id,
    payrollId: employee.payroll_id,
    location: location.name,
    role: names.roles.get(roleId)!,
    // A local time begins with its local day.
    date: startTime.slice(0, 10),
    startTime,
    endTime: localTimeAt(end, location.timezone),
    durationMinutes: minutes.duration,
    paidBreakMinutes: minutes.totalPaidBreaks,
    unpaidBreakMinutes: minutes.totalUnpaidBreaks,
    payableMinutes: minutes.payableDuration,
    payableHours: minutesToHours(minutes.payableDuration),
    hourlyWage: Number(hourlyWage),
    pay: payCents(minutes.payableDuration, hourlyWage) / 100,
  };
}

/** The payroll export: closed, live shifts starting on the local days of the range, oldest first. */
export class ShiftExportService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Checks the request at once, then reads the rows batch by batch from a database cursor. */
  batches(actor: Actor, filter: ExportFilter): AsyncGenerator<ShiftExportRow[]> {
    requirePermission(actor, "timesheets:read");
    const range = parseDateRange(filter.startDate, filter.endDate);
    for (const field of ["locationId", "employeeId"] as const) {
      if (filter[field] !== undefined && !isUuid(filter[field])) throw invalidField(field, `${field} must be a UUID`);
    }
    const organizationId = actor.organizationId;
    const { sql, params } = shiftWhere({
      organizationId,
      startDate: range.start,
      endDate: range.end,
      locationId: filter.locationId,
      employeeIds: filter.employeeId ? [filter.employeeId] : undefined,
    });
    let names: ExportNames;
    const batches = cursorBatches<{ shift: string }>(this.deps.db, `${EXPORT_SELECT} ${sql} AND s.end_time IS NOT NULL ORDER BY s.start_time, s.id`, params, {
      before: async (query) => {
        names = await readExportNames(query, organizationId);
      },
    });
    return mapBatches(batches, (row) => toExportRow(row.shift, names));
  }

  /** Every row at once, for GraphQL (which cannot stream), up to MAX_LISTED_SHIFTS. */
  async rows(actor: Actor, filter: ExportFilter): Promise<ShiftExportRow[]> {
    const all: ShiftExportRow[] = [];
    for await (const batch of this.batches(actor, filter)) {
      all.push(...batch);
      if (all.length > MAX_LISTED_SHIFTS) throw tooManyShifts();
    }
    return all;
  }
}

/**
 * Maps each batch while the database already reads the next one, so reading and writing overlap
 * instead of taking turns. Leaving early closes the source (and its cursor).
 */
async function* mapBatches<A, B>(batches: AsyncGenerator<A[]>, map: (a: A) => B): AsyncGenerator<B[]> {
  let next = batches.next();
  try {
    for (;;) {
      const { value, done } = await next;
      if (done) return;
      next = batches.next();
      // The driver sends that read a few ticks later: let it reach the database before mapping this batch.
      await new Promise((resolve) => setImmediate(resolve));
      yield value.map(map);
    }
  } finally {
    // A read still under way finishes (or fails) before the source can close.
    await next.catch(() => undefined);
    await batches.return(undefined);
  }
}

/**
 * The CSV columns. Those marked "typed" hold text people typed (names, other systems' ids): only
 * these are quoted and guarded against formulas, the rest are UUIDs, times and numbers written here.
 */
export const EXPORT_COLUMNS: [header: string, value: (row: ShiftExportRow) => string | number | null, typed?: "typed"][] = [
  ["shift_id", (r) => r.shiftId],
  ["employee", (r) => r.employee, "typed"],
  ["external_employee_id", (r) => r.externalEmployeeId, "typed"],
  ["payroll_id", (r) => r.payrollId, "typed"],
  ["location", (r) => r.location, "typed"],
  ["role", (r) => r.role, "typed"],
  ["date", (r) => r.date],
  ["start_time", (r) => r.startTime],
  ["end_time", (r) => r.endTime],
  ["duration_minutes", (r) => r.durationMinutes],
  ["paid_break_minutes", (r) => r.paidBreakMinutes],
  ["unpaid_break_minutes", (r) => r.unpaidBreakMinutes],
  ["payable_minutes", (r) => r.payableMinutes],
  ["payable_hours", (r) => r.payableHours.toFixed(2)],
  ["hourly_wage", (r) => wageText(r.hourlyWage)],
  ["pay", (r) => r.pay.toFixed(2)],
];

/**
 * A wage as stored (at most four decimals, which a number's shortest text keeps exactly), with at
 * least two decimals as money is written: 20 → "20.00", 18.333 → "18.333".
 */
function wageText(wage: number): string {
  const text = String(wage);
  const dot = text.indexOf(".");
  if (dot < 0) return `${text}.00`;
  return text.length - dot === 2 ? `${text}0` : text;
}

/** Text a CSV field cannot carry as it is: a formula's first character, a quote, comma or line break. */
const NEEDS_CARE = /^[=+\-@\t\r]|[",\r\n]/;

/**
 * One CSV field (RFC 4180 quoting). Text that a spreadsheet would run as a formula gets a leading
 * apostrophe, so an employee named "=HYPERLINK(…)" stays text.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  // One test for the common case of plain text, as this runs for every typed field of every exported shift.
  if (!NEEDS_CARE.test(value)) return value;
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record; concatenated in a loop, as it runs once for every exported shift. */
export function csvLine(row: ShiftExportRow): string {
  let line = "";
  for (let i = 0; i < EXPORT_COLUMNS.length; i++) {
    const [, value, typed] = EXPORT_COLUMNS[i];
    const field = value(row);
    line += (i === 0 ? "" : ",") + (typed ? csvField(field) : field === null ? "" : String(field));
  }
  return line + "\r\n";
}
export const CSV_HEADER = EXPORT_COLUMNS.map(([header]) => header).join(",") + "\r\n";
