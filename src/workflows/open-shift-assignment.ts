import { EntityManager } from "typeorm";
import { Actor } from "../auth/actor";
import { actingStaffId } from "../common/ids";
import { invalidField, conflict } from "../errors/app-error";
import { toClientError } from "../errors/client-error";
import type { Location } from "../modules/locations";
import {
  BulkAssignInput,
  BulkAssignItem,
  BulkAssignResult,
  ClaimOpenShiftInput,
  OpenShift,
  OpenShiftPreference,
  OpenShiftService,
  PreferenceStatus,
  PreferenceValue,
} from "../modules/open-shifts";
import { breakTypesOf, ScheduleService } from "../modules/schedules";

/**
 * A worker taking a place of an open shift, by claiming it or by a manager's assignment, or a
 * manager removing them from it: the open shift's place and preference and the worker's schedule
 * entry, in the one transaction that holds the open shift's row lock, each module called through
 * its front door.
 */
export class OpenShiftAssignment {
  constructor(
    private readonly openShifts: OpenShiftService,
    private readonly schedules: ScheduleService,
  ) {}

  /**
   * A worker takes a published open shift: a PENDING preference when it needs approval, else
   * accepted at once. Claiming again after a retraction reopens the same preference.
   */
  claim(actor: Actor, locationId: string, id: string, input: ClaimOpenShiftInput): Promise<OpenShiftPreference> {
    const staffId = actingStaffId(actor, input.workerId, "schedules:write", "openshifts:claim");
    const preference = input.preference ?? PreferenceValue.PREFERRED;
    if (preference === PreferenceValue.UNAVAILABLE) throw invalidField("preference", "A claim cannot say UNAVAILABLE");
    return this.openShifts.withShift(actor, locationId, id, async (manager, shift, location) => {
      this.openShifts.requireClaimable(shift);
      // Opening the claim checked the worker's eligibility, in this transaction: it is not checked again.
      const claim = await this.openShifts.openPreference(manager, actor, shift, staffId, preference);
      if (shift.requireApproval) return this.openShifts.savePreference(manager, claim);
      await this.openShifts.takePlace(manager, shift);
      return this.enter(manager, location, shift, claim);
    });
  }

  /** A manager accepts a pending preference: the worker gets a schedule entry for the open shift. */
  assignPreference(actor: Actor, locationId: string, id: string | null, preferenceId: string): Promise<OpenShiftPreference> {
    return this.openShifts.withPreference(actor, locationId, id, preferenceId, async (manager, shift, preference, location) => {
      if (shift.isDraft) throw conflict("Publish the open shift before accepting preferences for it");
      if (preference.status !== PreferenceStatus.PENDING) throw conflict(`Only a PENDING preference can be accepted; this one is ${preference.status}`);
      if (preference.preference === PreferenceValue.UNAVAILABLE) throw conflict("The worker said they are UNAVAILABLE for this shift");
      return this.accept(manager, location, shift, preference);
    });
  }

  /** Accepts each preference in its own transaction, in the order given; answers one result per id. */
  async bulkAssign(actor: Actor, locationId: string, input: BulkAssignInput): Promise<BulkAssignResult> {
    await this.schedules.locations.get(actor, locationId);
    const results: BulkAssignItem[] = [];
    for (const preferenceId of [...new Set(input.preferenceIds)]) {
      try {
        const preference = await this.assignPreference(actor, locationId, null, preferenceId);
        results.push({ preferenceId, ok: true, preference, error: null });
      } catch (error) {
        const clientError = toClientError(error as Error);
        if (clientError.internal) throw error;
        results.push({
          preferenceId,
          ok: false,
          preference: null,
          error: { code: clientError.code, message: clientError.message, status: clientError.status },
        });
      }
    }
    return { results };
  }

  /** A manager removes a pending or accepted preference; an accepted worker's schedule entry goes with it. */
  removePreference(actor: Actor, locationId: string, id: string, preferenceId: string): Promise<OpenShiftPreference> {
    return this.openShifts.withPreference(actor, locationId, id, preferenceId, async (manager, _shift, preference) => {
      if (preference.status === PreferenceStatus.ACCEPTED) {
        // Removing the entry gives its place back and marks the preference REMOVED.
        await this.schedules.removeOpenShiftEntry(manager, actor.organizationId, preference.scheduleShiftId!);
        return this.openShifts.reloadPreference(manager, preference);
      }
      return this.openShifts.transition(manager, preference, PreferenceStatus.REMOVED);
    });
  }

  /** Takes a place of the locked open shift for the worker, if they are eligible, and makes their schedule entry. */
  private async accept(manager: EntityManager, location: Location, shift: OpenShift, preference: OpenShiftPreference): Promise<OpenShiftPreference> {
    await this.openShifts.takePlace(manager, shift);
    await this.openShifts.requireEligible(manager, shift, preference.staffId);
    return this.enter(manager, location, shift, preference);
  }

  /** The accepted worker's schedule entry for the open shift, whose place they hold. */
  private async enter(manager: EntityManager, location: Location, shift: OpenShift, preference: OpenShiftPreference): Promise<OpenShiftPreference> {
    const org = shift.organizationId;
    const plan = {
      staffId: preference.staffId,
      roleId: shift.roleId,
      startsAt: shift.startsAt,
      endsAt: shift.endsAt,
      note: shift.note,
      breaks: await breakTypesOf(manager, org, location.id, shift.breakTypeIds, "breaks"),
    };
    const entry = await this.schedules.placeOpenShift(manager, org, location, plan, shift.id);
    preference.status = PreferenceStatus.ACCEPTED;
    preference.scheduleShiftId = entry.id;
    return this.openShifts.savePreference(manager, preference);
  }
}
