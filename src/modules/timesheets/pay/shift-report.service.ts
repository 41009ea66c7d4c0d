import { Actor, requirePermission } from "../../../auth/actor";
import { isUuid } from "../../../common/ids";
import { parseDateRange } from "../../../common/time";
import { ServiceDeps } from "../../../common/services";
import { invalidField } from "../../../errors/app-error";
import { closedShifts, closedShiftBreaks, closedShiftMinutes, ClosedShift } from "./closed-shift.store";
import { exactAmount, exactCents, exactPay } from "../../../common/money";
import { mandatoryBreakRules, MandatoryBreakRule } from "../../breaks";
import { loadLocationRules, recordedPredictabilityPay, RecordedPredictabilityPay } from "../../compliance";
import { payContextStart, ShiftPay, ShiftPayCalculator } from "./shift-pay";
import { minutesToHours } from "../../../common/shift-minutes";
import { EmployeeReport, GroupedReportArgs, ReportArgs, ReportFigures, ReportGroup, ReportGrouping, ShiftReport } from "./shift-report.graphql";
import { TimesheetSettingsService } from "../settings/timesheet-settings.service";

const MINUTE_MS = 60_000;

/** One shift's part of a report: its minutes and pay (shift-pay.ts). */
interface ShiftFigures {
  shift: ClosedShift;
  payable: number;
  paidBreaks: number;
  unpaidBreaks: number;
  pay: ShiftPay;
  violation: boolean;
}

/**
 * Sums of shifts' figures and recorded predictability pay, shown as hours and money. Money is summed
 * exactly and each figure rounded once, when shown: rounding each shift's cost and adding the
 * cents would make the total depend on how overtime falls across shifts.
 */
class Totals {
  shifts = 0;
  payable = 0;
  regular = 0;
  overtime = 0;
  doubleTime = 0;
  paidBreaks = 0;
  unpaidBreaks = 0;
  violations = 0;
  mealPremiums = 0;
  pay = 0n;
  overtimePay = 0n;
  doubleTimePay = 0n;
  meal = 0n;
  restGap = 0n;
  predictability = 0n;

  add(o: ShiftFigures): void {
    this.shifts++;
    this.payable += o.payable;
    this.regular += o.pay.regularMinutes;
    this.overtime += o.pay.overtimeMinutes;
    this.doubleTime += o.pay.doubleTimeMinutes;
    this.paidBreaks += o.paidBreaks;
    this.unpaidBreaks += o.unpaidBreaks;
    if (o.violation) this.violations++;
    if (o.pay.mealPremiumMinutes > 0) this.mealPremiums++;
    this.pay += exactPay(o.payable, o.shift.hourly_wage);
    this.overtimePay += o.pay.exact.overtime;
    this.doubleTimePay += o.pay.exact.doubleTime;
    this.meal += o.pay.exact.meal;
    this.restGap += o.pay.exact.restGap;
  }

  addPredictabilityPay(amount: string): void {
    this.predictability += exactAmount(amount);
  }

  figures(): ReportFigures {
    const laborCost = this.pay + this.overtimePay + this.doubleTimePay;
    return {
      shifts: this.shifts,
      totalHours: minutesToHours(this.payable),
      regularHours: minutesToHours(this.regular),
      overtimeHours: minutesToHours(this.overtime),
      doubleTimeHours: minutesToHours(this.doubleTime),
      paidBreakMinutes: this.paidBreaks,
      unpaidBreakMinutes: this.unpaidBreaks,
      laborCost: exactCents(laborCost) / 100,
      overtimePremium: exactCents(this.overtimePay) / 100,
      doubleTimePremium: exactCents(this.doubleTimePay) / 100,
      mealPremiums: this.mealPremiums,
      mealPremium: exactCents(this.meal) / 100,
      restGapPremium: exactCents(this.restGap) / 100,
      predictabilityPay: exactCents(this.predictability) / 100,
      totalCost: exactCents(laborCost + this.meal + this.restGap + this.predictability) / 100,
      mandatoryBreakViolations: this.violations,
    };
  }
}

/**
 * Did the shift run longer than a mandatory break type allows without a break of that type at
 * least as long as the type's duration?
 */
function violatesMandatoryBreaks(shift: ClosedShift, rules: MandatoryBreakRule[]): boolean {
  const breaks = closedShiftBreaks(shift);
  const end = shift.end_time.getTime();
  return rules.some((rule) => {
    const limit = rule.frequencyMinutes * MINUTE_MS;
    const taken = breaks
      .filter((b) => b.typeId === rule.typeId && b.end !== null && b.end.getTime() - b.start.getTime() >= rule.durationMinutes * MINUTE_MS)
      .sort((a, b) => a.start.getTime() - b.start.getTime());
    let workingSince = shift.start_time.getTime();
    for (const b of taken) {
      if (b.start.getTime() - workingSince > limit) return true;
      workingSince = Math.max(workingSince, b.end!.getTime());
    }
    return end - workingSince > limit;
  });
}

/** The people and places a report row names. */
type Named = Pick<
  ClosedShift,
  "staff_id" | "employee_name" | "external_employee_id" | "payroll_id" | "day" | "location_id" | "location_name" | "role_id" | "role_name"
>;

/** Per-employee and grouped reports of closed shifts, with overtime, premiums and labor cost. */
export class ShiftReportService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly settings: TimesheetSettingsService,
  ) {}

  async employees(actor: Actor, args: ReportArgs): Promise<EmployeeReport[]> {
    const totalsByStaff = new Map<string, { named: Named; totals: Totals }>();
    const totalsOf = (named: Named) => {
      const entry = totalsByStaff.get(named.staff_id) ?? { named, totals: new Totals() };
      totalsByStaff.set(named.staff_id, entry);
      return entry.totals;
    };
    await this.eachShift(
      actor,
      args,
      (o) => totalsOf(o.shift).add(o),
      (p) => totalsOf(p).addPredictabilityPay(p.amount),
    );
    return [...totalsByStaff.values()]
      .map(({ named, totals }) => ({
        employeeId: named.staff_id,
        employee: named.employee_name,
        externalEmployeeId: named.external_employee_id,
        payrollId: named.payroll_id,
        ...totals.figures(),
      }))
      .sort((a, b) => a.employee.localeCompare(b.employee) || a.employeeId.localeCompare(b.employeeId));
  }

  async grouped(actor: Actor, args: GroupedReportArgs): Promise<ShiftReport> {
    const keyOf: Record<ReportGrouping, (f: Named) => [string, string]> = {
      day: (f) => [f.day, f.day],
      location: (f) => [f.location_id, f.location_name],
      role: (f) => [f.role_id, f.role_name],
    };
    const groups = new Map<string, { label: string; totals: Totals }>();
    const totals = new Totals();
    const totalsOf = (named: Named) => {
      const [key, label] = keyOf[args.groupBy](named);
      const group = groups.get(key) ?? { label, totals: new Totals() };
      groups.set(key, group);
      return group.totals;
    };
    await this.eachShift(
      actor,
      args,
      (o) => {
        totalsOf(o.shift).add(o);
        totals.add(o);
      },
      (p) => {
        totalsOf(p).addPredictabilityPay(p.amount);
        totals.addPredictabilityPay(p.amount);
      },
    );
    const rows: ReportGroup[] = [...groups].map(([key, group]) => ({ key, label: group.label, ...group.totals.figures() }));
    rows.sort((a, b) => a.label.localeCompare(b.label) || a.key.localeCompare(b.key));
    return { groupBy: args.groupBy, groups: rows, totals: totals.figures() };
  }

  /**
   * Walks the closed shifts of the range in (staff member, start) order from a database cursor, then
   * the predictability pay recorded for scheduled shifts of the range. Shifts from the start of
   * the first workweek (and the day before the range, for rest) are read too, so that overtime
   * counts the whole week and rest its previous shift; those are not reported.
   */
  private async eachShift(
    actor: Actor,
    args: ReportArgs,
    visit: (o: ShiftFigures) => void,
    visitPredictability: (p: Named & { amount: string }) => void,
  ): Promise<void> {
    requirePermission(actor, "timesheets:read");
    const range = parseDateRange(args.startDate, args.endDate);
    if (args.locationId !== undefined && !isUuid(args.locationId)) throw invalidField("locationId", "locationId must be a UUID");
    const locationId = args.locationId?.toLowerCase();
    const settings = await this.settings.get(actor);
    // A report may lag a few seconds: it runs on a replica when one is healthy.
    const db = await this.deps.reads.readerFor(actor);
    const rules = await mandatoryBreakRules(db.manager, actor.organizationId);
    let calculator!: ShiftPayCalculator;
    let predictability: RecordedPredictabilityPay[] = [];
    const organizationId = actor.organizationId;
    const from = payContextStart(range.start, settings.weekStart);
    const batches = closedShifts(db, { organizationId, startDate: from, endDate: range.end }, "s.employee_id, s.start_time, s.id", async (query) => {
      calculator = new ShiftPayCalculator(settings, await loadLocationRules(query, organizationId));
      predictability = await recordedPredictabilityPay(query, { organizationId, startDate: range.start, endDate: range.end, locationId });
    });
    for await (const batch of batches) {
      for (const shift of batch) {
        const minutes = closedShiftMinutes(shift);
        const pay = calculator.pay({
          staffId: shift.staff_id,
          locationId: shift.location_id,
          day: shift.day,
          startMs: shift.start_time.getTime(),
          endMs: shift.end_time.getTime(),
          payableMinutes: minutes.payableDuration,
          hourlyWage: shift.hourly_wage,
          breaks: shift.breaks,
        });
        if (shift.day < range.start || (locationId && shift.location_id !== locationId)) continue;
        visit({
          shift,
          payable: minutes.payableDuration,
          paidBreaks: minutes.totalPaidBreaks,
          unpaidBreaks: minutes.totalUnpaidBreaks,
          pay,
          violation: violatesMandatoryBreaks(shift, rules.get(shift.location_id) ?? []),
        });
      }
    }
    for (const p of predictability) visitPredictability({ ...p, staff_id: p.worker_id });
  }
}
