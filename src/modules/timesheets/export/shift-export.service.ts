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
import { ExportRowKind, ShiftExportRow } from "./shift-export.graphql";
import { mapBatches } from "./export-batches";

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

function toExportRow(
  { shiftId, staffId, locationId, roleId, startTime, end, timezone, hourlyWage, minutes }: ExportedShift,
  pay: ShiftPay,
  names: ExportNames,
): ShiftExportRow {
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
  constructor(
    private readonly deps: ServiceDeps,
    private readonly settings: TimesheetSettingsService,
  ) {}

  /** Checks the request at once, then reads the rows batch by batch from a database cursor. */
  batches(actor: Actor, filter: ExportFilter): AsyncGenerator<ShiftExportRow[]> {
    requirePermission(actor, "timesheets:read");
    const range = parseDateRange(filter.startDate, filter.endDate);
    for (const field of ["locationId", "employeeId"] as const) {
      if (filter[field] !== undefined && !isUuid(filter[field])) throw invalidField(field, `${field} must be a UUID`);
    }
    return this.read(actor, range, filter.locationId?.toLowerCase(), filter.employeeId);
  }

  private async *read(
    actor: Actor,
    range: { start: string; end: string },
    locationId: string | undefined,
    staffId: string | undefined,
  ): AsyncGenerator<ShiftExportRow[]> {
    const organizationId = actor.organizationId;
    const settings = await this.settings.get(actor);
    // Every location's shifts count towards overtime and rest: the location filter applies to the rows.
    const filter = {
      organizationId,
      startDate: payContextStart(range.start, settings.weekStart),
      endDate: range.end,
      staffIds: staffId ? [staffId] : undefined,
    };
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
        const pay = calculator.pay({
          staffId,
          locationId: shiftLocation,
          day,
          startMs: start,
          endMs: end,
          payableMinutes: minutes.payableDuration,
          hourlyWage,
          breaks: shiftBreaks,
        });
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
