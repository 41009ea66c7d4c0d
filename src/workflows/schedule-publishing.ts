import { Actor } from "../auth/actor";
import { ServiceDeps } from "../common/services";
import { addDays, parseDateRange, startOfLocalDay } from "../common/time";
import { gatePublishing, recordPredictabilityPay, rulesOf } from "../modules/compliance";
import { recordEvent } from "../modules/events";
import type { OpenShiftService } from "../modules/open-shifts";
import { inZone, PublishResult, PublishScheduleInput, ScheduleDraftService, ScheduleService } from "../modules/schedules";

/**
 * Publishing a location's schedule for a date range: schedules, the labor rules, open shifts and
 * events in one transaction, each called through its front door.
 */
export class SchedulePublishing {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly schedules: ScheduleService,
    private readonly drafts: ScheduleDraftService,
    private readonly openShifts: OpenShiftService,
  ) {}

  /**
   * Applies every draft of the location that starts in the range, in one transaction: removals,
   * then changes, then additions; the overlap constraint is checked once all are applied (so two
   * entries may swap times), and no entry may meet its worker's approved time off. The range's
   * open shifts are published with it. A range that breaks a labor rule (an error) is refused
   * unless acknowledged; changes to published entries record the predictability pay they owe.
   * The location's labor rules are loaded once, for the gate and the pay.
   */
  publish(actor: Actor, locationId: string, input: PublishScheduleInput): Promise<PublishResult> {
    const { start, end } = parseDateRange(input.startDate, input.endDate);
    const org = actor.organizationId;
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.schedules.locations.get(actor, locationId, { manager });
      const zone = location.timezone;
      const bounds = { from: startOfLocalDay(start, zone), to: startOfLocalDay(addDays(end, 1), zone) };
      const now = this.deps.clock.now();
      const locked = await this.drafts.lockForPublishing(manager, org, location.id, bounds);
      const rules = await rulesOf(manager, org, location.id);
      const violations = await gatePublishing(manager, org, location, { start, end }, input, now, rules);
      const { removed, changed, added, changes } = await this.drafts.applyDrafts(manager, org, location, locked, now);
      await recordPredictabilityPay(manager, org, location.id, changes, now, rules);
      await this.drafts.closePublishing(manager, org, locked, [...changed, ...added], zone);
      const openShiftIds = await this.openShifts.publishWithin(manager, org, location.id, bounds, now);
      await recordEvent(manager, org, "schedule.published", {
        locationId: location.id,
        startDate: start,
        endDate: end,
        addedEntryIds: added.map((e) => e.id),
        changedEntryIds: changed.map((e) => e.id),
        removedEntryIds: removed.map((e) => e.id),
        openShiftIds,
      });
      return {
        startDate: start,
        endDate: end,
        added: inZone(added, zone),
        changed: inZone(changed, zone),
        removed: inZone(removed, zone),
        openShiftIds,
        violations,
      };
    });
  }
}
