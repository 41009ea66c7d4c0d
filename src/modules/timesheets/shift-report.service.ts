import { DateTime } from "luxon";
import { Actor, requirePermission } from "../../auth/actor";
import { isUuid } from "../../common/ids";
import { addDays, parseDateRange } from "../../common/time";
import { ServiceDeps } from "../../common/services";
import { invalidField } from "../../errors/app-error";
import { closedShiftFacts, factBreaks, factMinutes, ShiftFact } from "./shift-facts";
import { MINUTE_UNITS_PER_CENT, moneyUnits, roundedBigQuotient } from "../../common/money";
import { minutesToHours } from "./shift-minutes";
import { EmployeeReport, GroupedReportArgs, ReportArgs, ReportFigures, ReportGroup, ReportGrouping, ShiftReport } from "./shift-report.types";
import { TimesheetSettings, weekdayNumber } from "./timesheet-settings.entity";
import { TimesheetSettingsService } from "./timesheet-settings.service";

const MINUTE_MS = 60_000;

interface MandatoryBreakRule {
  typeId: string;
  frequencyMinutes: number;
  durationMinutes: number;
}

/**
 * One shift's part of a report: its minutes split into regular and overtime, and their pay as
 * minutes × wage in ten-thousandths (exact integers; the overtime rate applies to the sum).
 */
interface ShiftOutcome {
  fact: ShiftFact;
  payable: number;
  regular: number;
  overtime: number;
  paidBreaks: number;
  unpaidBreaks: number;
  regularWageMinutes: number;
  overtimeWageMinutes: number;
  violation: boolean;
}

/**
 * Sums of outcomes, shown as hours and money. Pay is summed exactly and rounded once, when shown:
 * rounding each shift's cost and adding the cents would make the total depend on how overtime
 * falls across shifts.
 */
class Tally {
  shifts = 0;
  payable = 0;
  regular = 0;
  overtime = 0;
  paidBreaks = 0;
  unpaidBreaks = 0;
  regularWageMinutes = 0;
  overtimeWageMinutes = 0;
  violations = 0;

  add(o: ShiftOutcome): void {
    this.shifts++;
    this.payable += o.payable;
    this.regular += o.regular;
    this.overtime += o.overtime;
    this.paidBreaks += o.paidBreaks;
    this.unpaidBreaks += o.unpaidBreaks;
    this.regularWageMinutes += o.regularWageMinutes;
    this.overtimeWageMinutes += o.overtimeWageMinutes;
    if (o.violation) this.violations++;
  }

  figures(overtimeRateUnits: number): ReportFigures {
    return {
      shifts: this.shifts,
      totalHours: minutesToHours(this.payable),
      regularHours: minutesToHours(this.regular),
      overtimeHours: minutesToHours(this.overtime),
      paidBreakMinutes: this.paidBreaks,
      unpaidBreakMinutes: this.unpaidBreaks,
      laborCost: Number(this.laborCostCents(overtimeRateUnits)) / 100,
      mandatoryBreakViolations: this.violations,
    };
  }

  /** Regular pay plus overtime pay × rate, in cents, rounded half away from zero. */
  private laborCostCents(overtimeRateUnits: number): bigint {
    const rateUnits = BigInt(moneyUnits(1));
    const exact = BigInt(this.regularWageMinutes) * rateUnits + BigInt(this.overtimeWageMinutes) * BigInt(overtimeRateUnits);
    return roundedBigQuotient(exact, BigInt(MINUTE_UNITS_PER_CENT) * rateUnits);
  }
}

/**
 * Splits each employee's payable minutes into regular and overtime, shift by shift in time order:
 * minutes beyond the daily threshold (if any) are overtime, then regular minutes beyond the weekly
 * threshold are. Weeks start on the organization's week start, in each shift's local days.
 */
class OvertimeCounter {
  private employeeId = "";
  private week = "";
  private weekRegular = 0;
  private readonly dayMinutes = new Map<string, number>();
  private readonly weeklyLimit: number;
  private readonly dailyLimit: number | null;
  private readonly weekStart: number;

  constructor(settings: TimesheetSettings) {
    this.weeklyLimit = settings.weeklyOvertimeHours * 60;
    this.dailyLimit = settings.dailyOvertimeHours === null ? null : settings.dailyOvertimeHours * 60;
    this.weekStart = weekdayNumber(settings.weekStart);
  }

  weekOf(day: string): string {
    const date = DateTime.fromISO(day, { zone: "UTC" });
    return addDays(day, -((date.weekday - this.weekStart + 7) % 7));
  }

  /** Overtime minutes among `payable` minutes of a shift of `employeeId` starting on `day`. */
  overtime(employeeId: string, day: string, payable: number): number {
    const week = this.weekOf(day);
    if (employeeId !== this.employeeId || week !== this.week) {
      this.employeeId = employeeId;
      this.week = week;
      this.weekRegular = 0;
      this.dayMinutes.clear();
    }
    const before = this.dayMinutes.get(day) ?? 0;
    this.dayMinutes.set(day, before + payable);
    const daily = this.dailyLimit === null ? 0 : clamp(before + payable - this.dailyLimit, 0, payable);
    const rest = payable - daily;
    const weekly = clamp(this.weekRegular + rest - this.weeklyLimit, 0, rest);
    this.weekRegular += rest - weekly;
    return daily + weekly;
  }
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Did the shift run longer than a mandatory break type allows without a break of that type at
 * least as long as the type's duration?
 */
function violatesMandatoryBreaks(fact: ShiftFact, rules: MandatoryBreakRule[]): boolean {
  const breaks = factBreaks(fact);
  const end = fact.end_time.getTime();
  return rules.some((rule) => {
    const limit = rule.frequencyMinutes * MINUTE_MS;
    const taken = breaks
      .filter((b) => b.typeId === rule.typeId && b.end !== null && b.end.getTime() - b.start.getTime() >= rule.durationMinutes * MINUTE_MS)
      .sort((a, b) => a.start.getTime() - b.start.getTime());
    let workingSince = fact.start_time.getTime();
    for (const b of taken) {
      if (b.start.getTime() - workingSince > limit) return true;
      workingSince = Math.max(workingSince, b.end!.getTime());
    }
    return end - workingSince > limit;
  });
}

/** Per-employee and grouped reports of closed shifts, with overtime and labor cost. */
export class ShiftReportService {
  constructor(private readonly deps: ServiceDeps, private readonly settings: TimesheetSettingsService) {}

  async employees(actor: Actor, args: ReportArgs): Promise<EmployeeReport[]> {
    const tallies = new Map<string, { fact: ShiftFact; tally: Tally }>();
    const rateUnits = await this.eachOutcome(actor, args, (o) => {
      const entry = tallies.get(o.fact.employee_id) ?? { fact: o.fact, tally: new Tally() };
      entry.tally.add(o);
      tallies.set(o.fact.employee_id, entry);
    });
    return [...tallies.values()]
      .map(({ fact, tally }) => ({ employeeId: fact.employee_id, employee: fact.employee_name, externalEmployeeId: fact.external_employee_id, payrollId: fact.payroll_id, ...tally.figures(rateUnits) }))
      .sort((a, b) => a.employee.localeCompare(b.employee) || a.employeeId.localeCompare(b.employeeId));
  }

  async grouped(actor: Actor, args: GroupedReportArgs): Promise<ShiftReport> {
    const keyOf: Record<ReportGrouping, (f: ShiftFact) => [string, string]> = {
      day: (f) => [f.day, f.day],
      location: (f) => [f.location_id, f.location_name],
      role: (f) => [f.role_id, f.role_name],
    };
    const groups = new Map<string, { label: string; tally: Tally }>();
    const totals = new Tally();
    const rateUnits = await this.eachOutcome(actor, args, (o) => {
      const [key, label] = keyOf[args.groupBy](o.fact);
      const group = groups.get(key) ?? { label, tally: new Tally() };
      group.tally.add(o);
      groups.set(key, group);
      totals.add(o);
    });
    const rows: ReportGroup[] = [...groups].map(([key, { label, tally }]) => ({ key, label, ...tally.figures(rateUnits) }));
    rows.sort((a, b) => a.label.localeCompare(b.label) || a.key.localeCompare(b.key));
    return { groupBy: args.groupBy, groups: rows, totals: totals.figures(rateUnits) };
  }

  /**
   * Walks the closed shifts of the range in (employee, start) order from a database cursor. Shifts
   * from the start of the first week are read too, so that overtime counts the whole week.
   * Answers the overtime rate in ten-thousandths, for the figures.
   */
  private async eachOutcome(actor: Actor, args: ReportArgs, visit: (o: ShiftOutcome) => void): Promise<number> {
    requirePermission(actor, "timesheets:read");
    const range = parseDateRange(args.startDate, args.endDate);
    if (args.locationId !== undefined && !isUuid(args.locationId)) throw invalidField("locationId", "locationId must be a UUID");
    const settings = await this.settings.get(actor);
    const rules = await this.mandatoryBreakRules(actor.organizationId);
    const counter = new OvertimeCounter(settings);
    const from = counter.weekOf(range.start);
    // Everything else is read before the cursor: on PGlite the cursor holds the only connection.
    const batches = closedShiftFacts(this.deps.db, { organizationId: actor.organizationId, startDate: from, endDate: range.end }, "s.employee_id, s.start_time, s.id");
    for await (const batch of batches) {
      for (const fact of batch) {
        const minutes = factMinutes(fact);
        const overtime = counter.overtime(fact.employee_id, fact.day, minutes.payableDuration);
        if (fact.day < range.start || (args.locationId && fact.location_id !== args.locationId.toLowerCase())) continue;
        const regular = minutes.payableDuration - overtime;
        const wageUnits = moneyUnits(fact.hourly_wage);
        visit({
          fact,
          payable: minutes.payableDuration,
          regular,
          overtime,
          paidBreaks: minutes.totalPaidBreaks,
          unpaidBreaks: minutes.totalUnpaidBreaks,
          regularWageMinutes: regular * wageUnits,
          overtimeWageMinutes: overtime * wageUnits,
          violation: violatesMandatoryBreaks(fact, rules.get(fact.location_id) ?? []),
        });
      }
    }
    return moneyUnits(settings.overtimeRate);
  }

  private async mandatoryBreakRules(organizationId: string): Promise<Map<string, MandatoryBreakRule[]>> {
    const rows: { id: string; location_id: string; frequency_minutes: number; duration_minutes: number }[] = await this.deps.db.query(
      `SELECT id, location_id, frequency_minutes, duration_minutes FROM break_types
       WHERE organization_id = $1 AND mandatory AND enabled AND deleted_at IS NULL AND frequency_minutes > 0`,
      [organizationId],
    );
    const rules = new Map<string, MandatoryBreakRule[]>();
    for (const r of rows) rules.set(r.location_id, [...(rules.get(r.location_id) ?? []), { typeId: r.id, frequencyMinutes: r.frequency_minutes, durationMinutes: r.duration_minutes }]);
    return rules;
  }
}
