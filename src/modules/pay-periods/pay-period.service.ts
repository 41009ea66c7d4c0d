import { EntityManager } from "typeorm";
import { Actor, ownRecordsOnly, requireSelfOr } from "../../auth/actor";
import { requireUuid } from "../../common/ids";
import { ServiceDeps } from "../../common/services";
import { addDays, daysBetween, parseDate, parseDateRange } from "../../common/time";
import { AppError, conflict, invalidField, notFound } from "../../errors/app-error";
import type { DayLockService, ShiftService } from "../timesheets";
import { ClosePayPeriodInput, PayPeriod, PayScheduleInput, PayScheduleResult, PeriodTimesheet, TimesheetStatus } from "./pay-period.graphql";
import { periodContaining, periodsBetween, PeriodDays } from "./pay-period.rules";
import {
  approvedTimesheetAmong,
  insertClose,
  presentPeriod,
  saveSchedule,
  saveTimesheetStatus,
  selectCloses,
  selectPeriodTimesheets,
  selectSchedule,
} from "./pay-period.store";

export const TIMESHEET_APPROVED = "TIMESHEET_APPROVED";

/** Pay periods: the schedule, one timesheet per person and period (submit, approve, reopen), and closing. */
export class PayPeriodService {
  constructor(
    private readonly deps: ServiceDeps,
    shifts: ShiftService,
    private readonly dayLocks: DayLockService,
  ) {
    // An approved timesheet's shifts are frozen until it is reopened.
    shifts.guardWrites(async (manager, organizationId, staffIds, days, staffHeld) => {
      const approved = await approvedTimesheetAmong(manager, organizationId, staffIds, days, !staffHeld);
      if (approved)
        throw conflict(`The staff member's timesheet of the pay period starting ${approved.period_start} is approved; reopen it first`, TIMESHEET_APPROVED);
    });
  }

  async schedule(actor: Actor): Promise<PayScheduleResult> {
    return selectSchedule(this.deps.db.manager, actor.organizationId);
  }

  setSchedule(actor: Actor, input: PayScheduleInput): Promise<PayScheduleResult> {
    const anchorDate = parseDate(input.anchorDate, "anchorDate");
    return this.deps.unitOfWork.run(async (manager) => {
      await saveSchedule(manager, actor.organizationId, { frequency: input.frequency, anchorDate }, this.deps.clock.now());
      return selectSchedule(manager, actor.organizationId);
    });
  }

  /** The periods overlapping [from, to] (at most 366 days), with whether each is closed. */
  async periods(actor: Actor, from: string, to: string): Promise<PayPeriod[]> {
    const range = parseDateRange(from, to, "from", "to");
    const manager = this.deps.db.manager;
    const periods = periodsBetween(await selectSchedule(manager, actor.organizationId), range.start, range.end);
    const closes = await selectCloses(manager, actor.organizationId, periods[0].start, periods[periods.length - 1].start);
    return periods.map((p) => presentPeriod(p, closes.get(p.start)));
  }

  /**
   * The date range a report or the export covers: the pay period starting on `payPeriod`, or the
   * dates given (one or the other, never both).
   */
  async rangeOf(
    actor: Actor,
    given: { startDate?: string | null; endDate?: string | null; payPeriod?: string | null },
  ): Promise<{ startDate: string; endDate: string }> {
    if (given.payPeriod == null) return { startDate: given.startDate ?? "", endDate: given.endDate ?? "" };
    if (given.startDate != null || given.endDate != null) throw invalidField("payPeriod", "Give either payPeriod or startDate and endDate");
    const period = await this.periodStartingOn(this.deps.db.manager, actor.organizationId, given.payPeriod, "payPeriod");
    return { startDate: period.start, endDate: period.end };
  }

  /** One row per staff member (a worker: their own) for the period starting on `startDate`. */
  async timesheets(actor: Actor, startDate: string): Promise<PeriodTimesheet[]> {
    const own = ownRecordsOnly(actor, "payperiods:read", "payperiods:self");
    const period = await this.periodStartingOn(this.deps.db.manager, actor.organizationId, startDate);
    return selectPeriodTimesheets(this.deps.db.manager, actor.organizationId, period, own ? { staffId: own } : {});
  }

  /** The worker attests the period (breaks included); a manager may submit for them. */
  submit(actor: Actor, startDate: string, staffId: string): Promise<PeriodTimesheet> {
    return this.change(actor, startDate, staffId, "payperiods:self", async (manager, period, sheet) => {
      if (sheet.status === TimesheetStatus.APPROVED) throw conflict("The timesheet is approved already; reopen it first", TIMESHEET_APPROVED);
      await saveTimesheetStatus(
        manager,
        actor.organizationId,
        sheet.staffId,
        period,
        { status: TimesheetStatus.SUBMITTED, submittedAt: this.deps.clock.now() },
        this.deps.clock.now(),
      );
    });
  }

  /** Refused (409) while the period holds an open shift or an OPEN critical exception of the person. */
  approve(actor: Actor, startDate: string, staffId: string): Promise<PeriodTimesheet> {
    return this.change(actor, startDate, staffId, "payperiods:manage", async (manager, period, sheet) => {
      if (sheet.status === TimesheetStatus.APPROVED) throw conflict("The timesheet is approved already");
      if (sheet.openShiftCount) throw conflict(`The period holds ${sheet.openShiftCount} open shift(s) of the staff member; clock them out first`);
      if (sheet.openCriticalExceptions) {
        throw conflict(
          `The period holds ${sheet.openCriticalExceptions} OPEN critical attendance exception(s) of the staff member; excuse or resolve them first`,
          "OPEN_EXCEPTIONS",
        );
      }
      const now = this.deps.clock.now();
      await saveTimesheetStatus(
        manager,
        actor.organizationId,
        sheet.staffId,
        period,
        { status: TimesheetStatus.APPROVED, approvedAt: now, approvedBy: actor.staffId },
        now,
      );
    });
  }

  /** Back to OPEN: the shifts can change again. A closed period's days stay locked until unlocked. */
  reopen(actor: Actor, startDate: string, staffId: string): Promise<PeriodTimesheet> {
    return this.change(actor, startDate, staffId, "payperiods:manage", async (manager, period, sheet) => {
      if (sheet.status === TimesheetStatus.OPEN) throw conflict("The timesheet is open already");
      await saveTimesheetStatus(manager, actor.organizationId, sheet.staffId, period, { status: TimesheetStatus.OPEN }, this.deps.clock.now());
    });
  }

  /**
   * Locks every day of the period at every location. Refused (409 naming who is not approved)
   * unless forced with a reason, which the close keeps (and so the audit trail).
   */
  close(actor: Actor, startDate: string, input: ClosePayPeriodInput): Promise<PayPeriod> {
    const reason = input.reason?.trim() || null;
    if (input.force && !reason) throw invalidField("reason", "A forced close needs a reason");
    return this.deps.unitOfWork.run(async (manager) => {
      const org = actor.organizationId;
      const period = await this.periodStartingOn(manager, org, startDate);
      const sheets = await selectPeriodTimesheets(manager, org, period, { lock: true });
      const notApproved = sheets.filter((s) => s.status !== TimesheetStatus.APPROVED).map((s) => s.staffId);
      if (notApproved.length && !input.force) {
        throw new AppError(
          "NOT_APPROVED",
          `${notApproved.length} timesheet(s) of the period are not approved; approve them, or close with force and a reason`,
          notApproved.map((id) => ({ field: "staffId", message: id })),
        );
      }
      const closed = await insertClose(
        manager,
        org,
        period,
        { closedBy: actor.staffId, forced: Boolean(input.force && notApproved.length), reason, notApproved },
        this.deps.clock.now(),
      );
      if (!closed) throw conflict(`The pay period starting ${period.start} is closed already`);
      const days = Array.from({ length: daysBetween(period.start, period.end) + 1 }, (_, i) => addDays(period.start, i));
      await this.dayLocks.lockEverywhereInTransaction(manager, org, days, actor.staffId);
      const closes = await selectCloses(manager, org, period.start, period.start);
      return presentPeriod(period, closes.get(period.start));
    });
  }

  /** Runs a timesheet change in one transaction, the person's row locked; answers the timesheet after it. */
  private async change(
    actor: Actor,
    startDate: string,
    staffId: string,
    selfPermission: "payperiods:self" | "payperiods:manage",
    work: (manager: EntityManager, period: PeriodDays, sheet: PeriodTimesheet) => Promise<void>,
  ): Promise<PeriodTimesheet> {
    const id = requireUuid(staffId, "Staff member");
    if (selfPermission === "payperiods:self") requireSelfOr(actor, "payperiods:manage", "payperiods:self", id);
    return this.deps.unitOfWork.run(async (manager) => {
      const period = await this.periodStartingOn(manager, actor.organizationId, startDate);
      const [sheet] = await selectPeriodTimesheets(manager, actor.organizationId, period, { staffId: id, lock: true });
      if (!sheet) throw notFound("Staff member");
      await work(manager, period, sheet);
      return (await selectPeriodTimesheets(manager, actor.organizationId, period, { staffId: id }))[0];
    });
  }

  /** The period that starts on the date; a date that starts none is a 404. */
  private async periodStartingOn(manager: EntityManager, organizationId: string, startDate: string, field = "startDate"): Promise<PeriodDays> {
    parseDate(startDate, field);
    const period = periodContaining(await selectSchedule(manager, organizationId), startDate);
    if (period.start !== startDate) throw notFound(`Pay period starting ${startDate}`);
    return period;
  }
}
