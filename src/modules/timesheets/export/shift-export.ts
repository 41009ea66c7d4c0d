import { Field, Float, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { Actor, requirePermission } from "../../../auth/actor";
import { isUuid } from "../../../common/ids";
import { parseDateRange } from "../../../common/time";
import { ServiceDeps } from "../../../common/services";
import { invalidField } from "../../../errors/app-error";
import { timestamptzMs } from "../../../database/timestamp-parser";
import { localTimeAt } from "../shifts/local-time";
import { exactAmount, exactCents, payCents } from "../../../common/money";
import { loadLocationRules, recordedPredictabilityPay, RecordedPredictabilityPay } from "../../compliance";
import { payContextStart, ShiftPay, ShiftPayCalculator } from "../pay/shift-pay";
import { BreakSpan, endedShiftMinutes, minutesToHours, ShiftMinutes } from "../../../common/shift-minutes";
import { TimesheetSettingsService } from "../settings/timesheet-settings.service";
import { exportedShifts, ExportNames, readExportNames } from "./shift-export.store";
import { tooManyShifts } from "../shifts/shift.store";

export enum ExportRowKind {
  SHIFT = "SHIFT",
  PREDICTABILITY_PAY = "PREDICTABILITY_PAY",
}
registerEnumType(ExportRowKind, {
  name: "ExportRowKind",
  description: "SHIFT: a closed shift; PREDICTABILITY_PAY: pay recorded for a change to a scheduled shift inside the notice window",
});

@ObjectType({ simpleResolvers: true, description: "One closed shift, or one predictability payment, as a payroll system takes it" })
export class ShiftExportRow {
  @Field(() => ID, { description: "The shift's id; for PREDICTABILITY_PAY, the schedule entry's" })
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

  @Field(() => Int, { description: "Payable minutes at the regular rate" })
  regularMinutes: number;

  @Field(() => Int, { description: "Payable minutes at overtimeRate" })
  overtimeMinutes: number;

  @Field(() => Int, { description: "Payable minutes at 2× (the location's compliance profile)" })
  doubleTimeMinutes: number;

  @Field(() => Float, { description: "The overtime rate: the organization's setting, or 1.5 where the location's compliance profile sets overtime" })
  overtimeRate: number;

  @Field(() => Float, { description: "overtimeMinutes × hourlyWage × (overtimeRate − 1) / 60, rounded once to the cent" })
  overtimePremium: number;

  @Field(() => Float, { description: "doubleTimeMinutes × hourlyWage / 60 (2× less the regular rate), rounded once to the cent" })
  doubleTimePremium: number;

  @Field(() => Int, { description: "Minutes of regular pay owed as the meal-period premium (the recorded breaks missed the location's meal-break rule; at most one per workday)" })
  mealPremiumMinutes: number;

  @Field(() => Float, { description: "mealPremiumMinutes × hourlyWage / 60, rounded once to the cent" })
  mealPremium: number;

  @Field(() => Int, { description: "Minutes of the shift worked inside a rest period shorter than the location's minimum" })
  restGapMinutes: number;

  @Field(() => Float, { nullable: true, description: "The rate above regular pay for those minutes (restPayRate − 1); null for a flat premium" })
  restGapRate: number | null;

  @Field(() => Float, { description: "restGapMinutes × hourlyWage × restGapRate / 60 rounded once to the cent, or the profile's flat amount when restGapRate is null" })
  restGapPremium: number;

  @Field(() => Float, { description: "Predictability pay as recorded when the schedule changed (PREDICTABILITY_PAY rows)" })
  predictabilityPay: number;

  @Field(() => ExportRowKind)
  kind: ExportRowKind;
}

export interface ExportFilter {
  startDate: string;
  endDate: string;
  locationId?: string;
  employeeId?: string;
}

/** A shift as the export reads it, its text split. */
interface ExportedShift {
  shiftId: string;
  staffId: string;
  locationId: string;
  roleId: string;
  /** Local, with its offset. */
  startTime: string;
  end: number;
  timezone: string;
  hourlyWage: string;
  minutes: ShiftMinutes;
}

function toExportRow({ shiftId, staffId, locationId, roleId, startTime, end, timezone, hourlyWage, minutes }: ExportedShift, pay: ShiftPay, names: ExportNames): ShiftExportRow {
  const employee = names.staff.get(staffId)!;
  const location = names.locations.get(locationId)!;
  return {
    shiftId,
    employee: employee.name,
    externalEmployeeId: employee.external_employee_id,
    payrollId: employee.payroll_id,
    location: location.name,
    role: names.roles.get(roleId)!,
    date: startTime.slice(0, 10),
    startTime,
    endTime: localTimeAt(end, timezone),
    durationMinutes: minutes.duration,
    paidBreakMinutes: minutes.totalPaidBreaks,
    unpaidBreakMinutes: minutes.totalUnpaidBreaks,
    payableMinutes: minutes.payableDuration,
    payableHours: minutesToHours(minutes.payableDuration),
    hourlyWage: Number(hourlyWage),
    pay: payCents(minutes.payableDuration, hourlyWage) / 100,
    regularMinutes: pay.regularMinutes,
    overtimeMinutes: pay.overtimeMinutes,
    doubleTimeMinutes: pay.doubleTimeMinutes,
    overtimeRate: pay.overtimeRate,
    overtimePremium: exactCents(pay.exact.overtime) / 100,
    doubleTimePremium: exactCents(pay.exact.doubleTime) / 100,
    mealPremiumMinutes: pay.mealPremiumMinutes,
    mealPremium: exactCents(pay.exact.meal) / 100,
    restGapMinutes: pay.restGapMinutes,
    restGapRate: pay.restGapRate,
    restGapPremium: exactCents(pay.exact.restGap) / 100,
    predictabilityPay: 0,
    kind: ExportRowKind.SHIFT,
  };
}

/**
 * A predictability payment as a row of its own: it belongs to a scheduled shift, not to a worked
 * one (a cancelled shift was never worked). Its times are the scheduled shift's start before the
 * change; it has no minutes and no other pay.
 */
function predictabilityRow(p: RecordedPredictabilityPay, overtimeRate: number): ShiftExportRow {
  const at = localTimeAt(p.shift_start.getTime(), p.timezone);
  return {
    shiftId: p.entry_id,
    employee: p.employee_name,
    externalEmployeeId: p.external_employee_id,
    payrollId: p.payroll_id,
    location: p.location_name,
    role: p.role_name,
    date: p.day,
    startTime: at,
    endTime: at,
    durationMinutes: 0,
    paidBreakMinutes: 0,
    unpaidBreakMinutes: 0,
    payableMinutes: 0,
    payableHours: 0,
    hourlyWage: 0,
    pay: 0,
    regularMinutes: 0,
    overtimeMinutes: 0,
    doubleTimeMinutes: 0,
    overtimeRate,
    overtimePremium: 0,
    doubleTimePremium: 0,
    mealPremiumMinutes: 0,
    mealPremium: 0,
    restGapMinutes: 0,
    restGapRate: null,
    restGapPremium: 0,
    predictabilityPay: exactCents(exactAmount(p.amount)) / 100,
    kind: ExportRowKind.PREDICTABILITY_PAY,
  };
}

const NO_BREAKS: readonly BreakSpan[] = Object.freeze([]);

function parseBreaks(text: string): BreakSpan[] {
  if (!text) return [];
  return text.split(";").map((b) => {
    const [start, end, paid] = b.split(":");
    return [Number(start), end === "" ? null : Number(end), paid === "true"] as const;
  });
}

/**
 * The payroll export: closed, live shifts starting on the local days of the range, oldest first,
 * each with its overtime and premiums (shift-pay.ts), then the predictability pay recorded for
 * scheduled shifts of the range. Shifts from the start of the first workweek are read to count
 * overtime and rest, and not exported.
 */
export class ShiftExportService {
  constructor(private readonly deps: ServiceDeps, private readonly settings: TimesheetSettingsService) {}

  /** Checks the request at once, then reads the rows batch by batch from a database cursor. */
  batches(actor: Actor, filter: ExportFilter): AsyncGenerator<ShiftExportRow[]> {
    requirePermission(actor, "timesheets:read");
    const range = parseDateRange(filter.startDate, filter.endDate);
    for (const field of ["locationId", "employeeId"] as const) {
      if (filter[field] !== undefined && !isUuid(filter[field])) throw invalidField(field, `${field} must be a UUID`);
    }
    return this.read(actor, range, filter.locationId?.toLowerCase(), filter.employeeId);
  }

  private async *read(actor: Actor, range: { start: string; end: string }, locationId: string | undefined, staffId: string | undefined): AsyncGenerator<ShiftExportRow[]> {
    const organizationId = actor.organizationId;
    const settings = await this.settings.get(actor);
    // Every location's shifts count towards overtime and rest: the location filter applies to the rows.
    const filter = { organizationId, startDate: payContextStart(range.start, settings.weekStart), endDate: range.end, staffIds: staffId ? [staffId] : undefined };
    let names: ExportNames;
    let calculator: ShiftPayCalculator;
    let predictability: RecordedPredictabilityPay[] = [];
    // The export may lag a few seconds: it runs on a replica when one is healthy.
    const batches = exportedShifts(await this.deps.reads.readerFor(actor), filter, async (query) => {
      names = await readExportNames(query, organizationId);
      calculator = new ShiftPayCalculator(settings, await loadLocationRules(query, organizationId));
      predictability = await recordedPredictabilityPay(query, { organizationId, startDate: range.start, endDate: range.end, locationId, staffId });
    });
    yield* mapBatches(batches, (rows) => {
      const out: ShiftExportRow[] = [];
      for (const { shift } of rows) {
        const [shiftId, staffId, shiftLocation, roleId, startText, endText, hourlyWage, paidText, unpaidText, breaks] = shift.split(",");
        const start = timestamptzMs(startText);
        const end = timestamptzMs(endText);
        const { timezone } = names.locations.get(shiftLocation)!;
        const startTime = localTimeAt(start, timezone);
        // A local time begins with its local day.
        const day = startTime.slice(0, 10);
        const minutes = endedShiftMinutes(start, end, Number(paidText), Number(unpaidText));
        // Breaks count only where a meal-break rule does: elsewhere they are not even parsed.
        const shiftBreaks = calculator.readsBreaks(shiftLocation) ? parseBreaks(breaks) : NO_BREAKS;
        const pay = calculator.pay({ staffId, locationId: shiftLocation, day, startMs: start, endMs: end, payableMinutes: minutes.payableDuration, hourlyWage, breaks: shiftBreaks });
        if (day < range.start || (locationId && shiftLocation !== locationId)) continue;
        out.push(toExportRow({ shiftId, staffId, locationId: shiftLocation, roleId, startTime, end, timezone, hourlyWage, minutes }, pay, names));
      }
      return out;
    });
    if (predictability.length) yield predictability.map((p) => predictabilityRow(p, Number(settings.overtimeRate)));
  }

  /** Every row at once, for GraphQL (which cannot stream), up to `Config.maxListedShifts`. */
  async rows(actor: Actor, filter: ExportFilter): Promise<ShiftExportRow[]> {
    const all: ShiftExportRow[] = [];
    const limit = this.deps.config.maxListedShifts;
    for await (const batch of this.batches(actor, filter)) {
      all.push(...batch);
      if (all.length > limit) throw tooManyShifts(limit);
    }
    return all;
  }
}

/**
 * Maps each batch while the database already reads the next one, so reading and writing overlap
 * instead of taking turns. Leaving early closes the source (and its cursor).
 */
async function* mapBatches<A, B>(batches: AsyncGenerator<A[]>, map: (batch: A[]) => B[]): AsyncGenerator<B[]> {
  let next = batches.next();
  try {
    for (;;) {
      const { value, done } = await next;
      if (done) return;
      next = batches.next();
      // The driver sends that read a few ticks later: let it reach the database before mapping this batch.
      await new Promise((resolve) => setImmediate(resolve));
      const mapped = map(value);
      if (mapped.length) yield mapped;
    }
  } finally {
    // A read still under way finishes (or fails) before the source can close.
    await next.catch(() => undefined);
    await batches.return(undefined);
  }
}

/**
 * The CSV columns, in the order of csvLine's fields. Those holding text people typed (names, other
 * systems' ids) are quoted and guarded against formulas (csvField); the rest are UUIDs, times and
 * numbers written here.
 */
const CSV_COLUMNS = [
  "shift_id",
  "employee",
  "external_employee_id",
  "payroll_id",
  "location",
  "role",
  "date",
  "start_time",
  "end_time",
  "duration_minutes",
  "paid_break_minutes",
  "unpaid_break_minutes",
  "payable_minutes",
  "payable_hours",
  "hourly_wage",
  "pay",
  "regular_minutes",
  "overtime_minutes",
  "double_time_minutes",
  "overtime_rate",
  "overtime_premium",
  "double_time_premium",
  "meal_premium_minutes",
  "meal_premium",
  "rest_gap_minutes",
  "rest_gap_rate",
  "rest_gap_premium",
  "predictability_pay",
  "kind",
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
 * One CSV field of typed text (RFC 4180 quoting). Text that a spreadsheet would run as a formula
 * gets a leading apostrophe, so an employee named "=HYPERLINK(…)" stays text.
 */
export function csvField(value: string | null): string {
  if (value === null) return "";
  // One test for the common case of plain text, as this runs for every typed field of every exported shift.
  if (!NEEDS_CARE.test(value)) return value;
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * One CSV record (CSV_COLUMNS), written as one template: it runs for every exported shift, and a
 * loop over a function per column cost more than the pay rules.
 */
export function csvLine(r: ShiftExportRow): string {
  return (
    `${r.shiftId},${csvField(r.employee)},${csvField(r.externalEmployeeId)},${csvField(r.payrollId)},${csvField(r.location)},${csvField(r.role)},` +
    `${r.date},${r.startTime},${r.endTime},${r.durationMinutes},${r.paidBreakMinutes},${r.unpaidBreakMinutes},${r.payableMinutes},` +
    `${r.payableHours.toFixed(2)},${wageText(r.hourlyWage)},${r.pay.toFixed(2)},${r.regularMinutes},${r.overtimeMinutes},${r.doubleTimeMinutes},` +
    `${r.overtimeRate},${r.overtimePremium.toFixed(2)},${r.doubleTimePremium.toFixed(2)},${r.mealPremiumMinutes},${r.mealPremium.toFixed(2)},` +
    `${r.restGapMinutes},${r.restGapRate === null ? "" : r.restGapRate},${r.restGapPremium.toFixed(2)},${r.predictabilityPay.toFixed(2)},${r.kind}\r\n`
  );
}
export const CSV_HEADER = CSV_COLUMNS.join(",") + "\r\n";
