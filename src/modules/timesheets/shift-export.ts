import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { Actor, requirePermission } from "../../auth/actor";
import { isUuid } from "../../common/ids";
import { parseDateRange } from "../../common/time";
import { ServiceDeps } from "../../app/deps";
import { invalidField } from "../../errors/app-error";
import { closedShiftFacts, factMinutes, ShiftFact } from "./shift-facts";
import { localTime } from "./local-time";
import { minutesToHours, payCents } from "./shift-minutes";
import { MAX_LISTED_SHIFTS, tooManyShifts } from "./shift.store";

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

  @Field(() => Float)
  payableHours: number;

  @Field(() => Float)
  hourlyWage: number;

  @Field(() => Float, { description: "payable hours × hourly wage, to the cent" })
  pay: number;
}

export interface ExportFilter {
  startDate: string;
  endDate: string;
  locationId?: string;
  employeeId?: string;
}

function toExportRow(row: ShiftFact): ShiftExportRow {
  const minutes = factMinutes(row);
  return {
    shiftId: row.id,
    employee: row.employee_name,
    externalEmployeeId: row.external_employee_id,
    payrollId: row.payroll_id,
    location: row.location_name,
    role: row.role_name,
    date: row.day,
    startTime: localTime(row.start_time, row.timezone),
    endTime: localTime(row.end_time, row.timezone),
    durationMinutes: minutes.duration,
    paidBreakMinutes: minutes.totalPaidBreaks,
    unpaidBreakMinutes: minutes.totalUnpaidBreaks,
    payableHours: minutesToHours(minutes.payableDuration),
    hourlyWage: Number(row.hourly_wage),
    pay: payCents(minutes.payableDuration, row.hourly_wage) / 100,
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
    const batches = closedShiftFacts(this.deps.db, {
      organizationId: actor.organizationId,
      startDate: range.start,
      endDate: range.end,
      locationId: filter.locationId,
      employeeIds: filter.employeeId ? [filter.employeeId] : undefined,
    }, "s.start_time, s.id");
    return mapBatches(batches, toExportRow);
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
      yield value.map(map);
    }
  } finally {
    // A read still under way finishes (or fails) before the source can close.
    await next.catch(() => undefined);
    await batches.return(undefined);
  }
}

export const EXPORT_COLUMNS: [header: string, value: (row: ShiftExportRow) => string | number | null][] = [
  ["shift_id", (r) => r.shiftId],
  ["employee", (r) => r.employee],
  ["external_employee_id", (r) => r.externalEmployeeId],
  ["payroll_id", (r) => r.payrollId],
  ["location", (r) => r.location],
  ["role", (r) => r.role],
  ["date", (r) => r.date],
  ["start_time", (r) => r.startTime],
  ["end_time", (r) => r.endTime],
  ["duration_minutes", (r) => r.durationMinutes],
  ["paid_break_minutes", (r) => r.paidBreakMinutes],
  ["unpaid_break_minutes", (r) => r.unpaidBreakMinutes],
  ["payable_hours", (r) => r.payableHours.toFixed(2)],
  ["hourly_wage", (r) => r.hourlyWage.toFixed(2)],
  ["pay", (r) => r.pay.toFixed(2)],
];

/**
 * One CSV field (RFC 4180 quoting). Text that a spreadsheet would run as a formula gets a leading
 * apostrophe, so an employee named "=HYPERLINK(…)" stays text.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record; concatenated in a loop, as it runs once for every exported shift. */
export function csvLine(row: ShiftExportRow): string {
  let line = csvField(EXPORT_COLUMNS[0][1](row));
  for (let i = 1; i < EXPORT_COLUMNS.length; i++) line += "," + csvField(EXPORT_COLUMNS[i][1](row));
  return line + "\r\n";
}
export const CSV_HEADER = EXPORT_COLUMNS.map(([header]) => header).join(",") + "\r\n";
