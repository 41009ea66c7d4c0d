import { EntityManager } from "typeorm";
import { ScheduledJob, ServiceDeps } from "../../../common/services";
import { addDays, localDate, parseDate, startOfLocalDay } from "../../../common/time";
import { notFound } from "../../../errors/app-error";
import { endedShiftMinutes } from "../../../common/shift-minutes";
import { fixedAccrualsDue } from "./accrual-schedule";
import { exactHours } from "../requests/request-hours";
import { Accruing, accruingWorkerPolicyIds, balanceBefore, lockAccruing, organizationsToAccrue, shiftsToAccrue } from "./accrual.store";
import { LedgerRow } from "../balances/worker-policy.store";
import { WorkerPolicyService } from "../balances/worker-policy.service";

export interface AccrualSummary {
  workerPolicies: number;
  /** Ledger rows added: 0 when everything due was already there. */
  entries: number;
}

/**
 * Applies what policies earn: fixed grants and periodic accruals, per-hour accruals from closed
 * shifts, and the year-end carry-over limit. Every row has a period key that is unique per worker
 * policy, so a run repeated, or run by two processes at once, adds nothing twice; each worker
 * policy is locked while it is accrued, so the maximum balance holds.
 */
export class AccrualService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly workerPolicies: WorkerPolicyService,
  ) {}

  /** The hourly run inside the service: every organization, up to its own today. */
  readonly job: ScheduledJob = { name: "time-off accruals", intervalMs: 60 * 60 * 1000, run: () => this.accrue("all") };

  /**
   * Everything due up to `untilDate` (inclusive, each organization's calendar), or up to each
   * organization's today when no date is given.
   */
  async accrue(organizationId: string | "all", untilDate?: string): Promise<AccrualSummary> {
    if (untilDate !== undefined) parseDate(untilDate, "until");
    const organizations = await organizationsToAccrue(this.deps.db, organizationId);
    if (organizationId !== "all" && !organizations.length) throw notFound("Organization");
    const summary: AccrualSummary = { workerPolicies: 0, entries: 0 };
    for (const organization of organizations) {
      const until = untilDate ?? localDate(this.deps.clock.now(), organization.timezone);
      const ids = await accruingWorkerPolicyIds(this.deps.db, organization.id);
      for (const { id } of ids) {
        const added = await this.deps.unitOfWork.run((manager) => this.accrueOne(manager, organization.id, organization.timezone, id, until));
        summary.workerPolicies++;
        summary.entries += added;
      }
    }
    return summary;
  }

  private async accrueOne(manager: EntityManager, organizationId: string, zone: string, workerPolicyId: string, until: string): Promise<number> {
    const wp = await lockAccruing(manager, organizationId, workerPolicyId);
    if (!wp) return 0;
    const from = wp.accrues_from > wp.accruing_since ? wp.accrues_from : wp.accruing_since;
    const now = this.deps.clock.now();
    const row = (r: Omit<LedgerRow, "organizationId" | "workerPolicyId" | "recordedAt">): LedgerRow => ({
      ...r,
      organizationId,
      workerPolicyId: wp.id,
      recordedAt: now,
    });
    const settings = wp.limit_settings;
    let added = 0;
    if (settings.isFixedAmount && settings.fixedAmount) {
      const start = wp.last_fixed && addDays(wp.last_fixed, 1) > from ? addDays(wp.last_fixed, 1) : from;
      const due = fixedAccrualsDue(settings.fixedAmount, Number(wp.full_day_duration), start, until);
      added += await this.workerPolicies.record(
        manager,
        due.map((d) => row({ kind: d.kind, hours: d.hours, effectiveDate: d.date, periodKey: d.periodKey })),
      );
    } else if (!settings.isFixedAmount && settings.perHourEarnings) {
      added += await this.accruePerHour(manager, organizationId, zone, wp, from, until, row);
    }
    if (wp.carryover_limit !== null) added += await this.forfeitOverCarryover(manager, wp, Number(wp.carryover_limit), from, until, row);
    return added;
  }

  /** hoursEarned for every hoursWorked payable hours of each closed shift not yet counted, up to the maximum balance. */
  private async accruePerHour(
    manager: EntityManager,
    organizationId: string,
    zone: string,
    wp: Accruing,
    from: string,
    until: string,
    row: (r: Omit<LedgerRow, "organizationId" | "workerPolicyId" | "recordedAt">) => LedgerRow,
  ): Promise<number> {
    const earnings = wp.limit_settings.perHourEarnings!;
    const rate = (earnings.hoursEarned ?? 0) / (earnings.hoursWorked ?? 1);
    const shifts = await shiftsToAccrue(
      manager,
      organizationId,
      wp,
      startOfLocalDay(from, zone),
      startOfLocalDay(addDays(until, 1), zone),
      this.deps.clock.now(),
    );
    if (!shifts.length) return 0;
    let { hoursBalance } = (await this.workerPolicies.balances(manager, organizationId, [wp.id]))[0];
    const rows = shifts.map((shift) => {
      const { payableDuration } = endedShiftMinutes(Number(shift.start_ms), Number(shift.end_ms), 0, Number(shift.unpaid_break_ms));
      const earned = exactHours((payableDuration / 60) * rate);
      const room = earnings.isLimitedMaximumBalance ? Math.max(0, exactHours((earnings.maximumHoursBalance ?? 0) - hoursBalance)) : Infinity;
      const hours = Math.min(earned, room);
      hoursBalance += hours;
      // A shift worked at the maximum still gets its row (of what it earned): it is never counted again.
      const note = hours < earned ? `Earned ${earned} h; capped at the maximum balance of ${earnings.maximumHoursBalance} h` : null;
      return row({ kind: "accrual", hours, effectiveDate: localDate(shift.end_time, zone), periodKey: `shift:${shift.id}`, shiftId: shift.id, note });
    });
    return this.workerPolicies.record(manager, rows);
  }

  /** On each January 1st (the organization's zone), the balance above the carry-over limit is forfeited. */
  private async forfeitOverCarryover(
    manager: EntityManager,
    wp: Accruing,
    limit: number,
    from: string,
    until: string,
    row: (r: Omit<LedgerRow, "organizationId" | "workerPolicyId" | "recordedAt">) => LedgerRow,
  ): Promise<number> {
    let added = 0;
    for (let year = Number(from.slice(0, 4)) + 1; year <= Number(until.slice(0, 4)); year++) {
      const newYear = `${year}-01-01`;
      const balance = await balanceBefore(manager, wp.id, newYear);
      const over = exactHours(Number(balance) - limit);
      if (over <= 0) continue;
      added += await this.workerPolicies.record(manager, [
        row({ kind: "carryover_forfeit", hours: -over, effectiveDate: newYear, periodKey: String(year), note: `Carry-over limit of ${limit} h at year end` }),
      ]);
    }
    return added;
  }
}
