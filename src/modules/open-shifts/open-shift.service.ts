import { EntityManager } from "typeorm";
import { Actor, can, requireSelfOr } from "../../auth/actor";
import { actingStaffId, requireUuid } from "../../common/ids";
import { MAX_PAGE_SIZE, Page, paginate } from "../../common/pagination";
import { TenantRecords } from "../../common/tenant-records";
import { parseTimestamp } from "../../common/time";
import { rejectNulls } from "../../common/validation";
import { ServiceDeps } from "../../common/services";
import { conflict, invalidField, notFound } from "../../errors/app-error";
import { groupByKeys } from "../../loaders/loaders";
import { requireEligible } from "../availability";
import { Location } from "../locations";
import { breakTypesOf, dayBounds, inZone, MAX_PLANNED_MINUTES, requireRole, startingWithin } from "../schedules";
import { OpenShift, OpenShiftPreference, PreferenceStatus, PreferenceValue } from "./open-shift.entity";
import { insertPublishedOpenShift, locationOpenShifts, publishOpenShifts, selectOpenShift, selectPreferences, takePlace } from "./open-shift.store";
import {
  CreateOpenShiftInput,
  CreatePreferenceInput,
  OpenShiftListArgs,
  UpdateOpenShiftInput,
  UpdatePreferenceInput,
  WorkerChoiceInput,
} from "./open-shift.inputs";
import { findOneBy, findOneByOrFail } from "../../common/entity-reads";

const full = (shift: OpenShift) => conflict(`The open shift needs ${shift.staffCountRequired} worker(s) and all places are taken`, "OPEN_SHIFT_FULL");

/** A published open shift of one place, in the caller's transaction: what a dropped entry becomes. */
export function postPublishedOpenShift(
  manager: EntityManager,
  organizationId: string,
  shift: { locationId: string; roleId: string; startsAt: Date; endsAt: Date; breakTypeIds: string[]; note: string | null },
  now: Date,
): Promise<OpenShift> {
  return insertPublishedOpenShift(manager, organizationId, shift, now);
}

/** Managers see every open shift and preference; workers only published shifts and their own preferences. */
const seesDrafts = (actor: Actor) => can(actor, "schedules:read");

/**
 * Open shifts of a location and the workers' claims and preferences for them. Every change to an
 * open shift's preferences locks the open shift row first, so acceptances of one shift happen one
 * at a time and `accepted_count` never passes `staff_count_required` (a CHECK holds it too).
 */
export class OpenShiftService {
  private readonly locations: TenantRecords<Location>;

  constructor(private readonly deps: ServiceDeps) {
    this.locations = new TenantRecords(deps, Location, "Location");
  }

  async list(actor: Actor, args: OpenShiftListArgs): Promise<Page<OpenShift>> {
    const location = await this.locations.get(actor, args.locationId);
    const query = startingWithin(
      locationOpenShifts(this.deps.db.manager, actor.organizationId, location.id, !seesDrafts(actor)),
      dayBounds(args.startDate, args.endDate, location.timezone),
    );
    // One page holds a date range's open shifts: as large as a REST list's unless asked otherwise.
    const page = await paginate(query, { ...args, first: args.first ?? MAX_PAGE_SIZE }, { property: "startsAt", column: "start_time" });
    inZone(page.nodes, location.timezone);
    return page;
  }

  /** Publishes the location's open shifts that start within the bounds, in the caller's transaction (a schedule's publishing); answers their ids. */
  publishWithin(manager: EntityManager, organizationId: string, locationId: string, bounds: { from: Date; to: Date }, now: Date): Promise<string[]> {
    return publishOpenShifts(manager, organizationId, locationId, bounds, now);
  }

  async get(actor: Actor, locationId: string, id: string): Promise<OpenShift> {
    const location = await this.locations.get(actor, locationId);
    return this.shiftAt(this.deps.db.manager, actor, location, id);
  }

  create(actor: Actor, locationId: string, input: CreateOpenShiftInput): Promise<OpenShift> {
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.locations.get(actor, locationId, { manager });
      await requireRole(manager, actor.organizationId, input.roleId);
      const times = this.times(location, input.startDate, input.endDate);
      const breaks = await breakTypesOf(manager, actor.organizationId, location.id, input.breaks ?? [], "breaks");
      const repo = manager.getRepository(OpenShift);
      const shift = await repo.save(
        repo.create({
          organizationId: actor.organizationId,
          locationId: location.id,
          roleId: input.roleId.toLowerCase(),
          ...times,
          breakTypeIds: breaks.map((b) => b.typeId),
          staffCountRequired: input.staffCountRequired,
          acceptedCount: 0,
          requireApproval: input.requireApproval ?? true,
          note: input.note?.trim() || null,
          publishedAt: null,
        }),
      );
      return inZone([shift], location.timezone)[0];
    });
  }

  /** Workers already accepted keep their entries: their role and times cannot change, nor can fewer places than them remain. */
  update(actor: Actor, locationId: string, id: string, input: UpdateOpenShiftInput): Promise<OpenShift> {
    rejectNulls(input);
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.locations.get(actor, locationId, { manager });
      const shift = await this.shiftAt(manager, actor, location, id, true);
      const moves = [input.roleId, input.startDate, input.endDate].some((v) => v !== undefined);
      if (moves && shift.acceptedCount > 0) throw conflict("Workers are already accepted for this open shift: its role and times cannot change");
      if (input.staffCountRequired !== undefined && input.staffCountRequired < shift.acceptedCount) {
        throw conflict(`${shift.acceptedCount} worker(s) are already accepted: staffCountRequired cannot be lower`);
      }
      if (input.roleId !== undefined) {
        await requireRole(manager, actor.organizationId, input.roleId);
        shift.roleId = input.roleId.toLowerCase();
      }
      Object.assign(shift, this.times(location, input.startDate ?? shift.startDate, input.endDate ?? shift.endDate));
      if (input.breaks !== undefined)
        shift.breakTypeIds = (await breakTypesOf(manager, actor.organizationId, location.id, input.breaks, "breaks")).map((b) => b.typeId);
      if (input.staffCountRequired !== undefined) shift.staffCountRequired = input.staffCountRequired;
      if (input.requireApproval !== undefined) shift.requireApproval = input.requireApproval;
      if (input.note !== undefined) shift.note = input.note?.trim() || null;
      return manager.getRepository(OpenShift).save(shift);
    });
  }

  /** Removes the open shift and its preferences; entries of accepted workers stay in the schedule. */
  async delete(actor: Actor, locationId: string, id: string): Promise<boolean> {
    const location = await this.locations.get(actor, locationId);
    const shift = await this.shiftAt(this.deps.db.manager, actor, location, id);
    await this.deps.unitOfWork.run((manager) => manager.delete(OpenShift, { organizationId: actor.organizationId, id: shift.id }));
    return true;
  }

  /** The worker withdraws their pending claim. */
  retractClaim(actor: Actor, locationId: string, id: string, input: WorkerChoiceInput): Promise<OpenShiftPreference> {
    const staffId = actingStaffId(actor, input.workerId, "schedules:write", "openshifts:claim");
    return this.withShift(actor, locationId, id, async (manager, shift) => {
      const claim = await findOneBy(manager, OpenShiftPreference, { organizationId: actor.organizationId, openShiftId: shift.id, staffId }, { lock: "update" });
      if (!claim) throw notFound("Claim");
      return this.transition(manager, claim, PreferenceStatus.RETRACTED);
    });
  }

  /** States a worker's preference (PENDING until a manager decides); on a draft open shift only managers may, as a draft preference. */
  createPreference(actor: Actor, locationId: string, id: string, input: CreatePreferenceInput): Promise<OpenShiftPreference> {
    const staffId = actingStaffId(actor, input.workerId, "schedules:write", "openshifts:claim");
    return this.withShift(actor, locationId, id, async (manager, shift) => {
      const preference = await this.openPreference(manager, actor, shift, staffId, input.preference);
      return this.savePreference(manager, preference);
    });
  }

  updatePreference(actor: Actor, locationId: string, id: string, preferenceId: string, input: UpdatePreferenceInput): Promise<OpenShiftPreference> {
    return this.withPreference(actor, locationId, id, preferenceId, async (manager, _shift, preference) => {
      this.requireOwnOrManager(actor, preference);
      if (preference.status !== PreferenceStatus.PENDING) throw conflict(`Only a PENDING preference can change; this one is ${preference.status}`);
      preference.preference = input.preference;
      return this.savePreference(manager, preference);
    });
  }

  retractPreference(actor: Actor, locationId: string, id: string, preferenceId: string): Promise<OpenShiftPreference> {
    return this.withPreference(actor, locationId, id, preferenceId, (manager, _shift, preference) => {
      this.requireOwnOrManager(actor, preference);
      return this.transition(manager, preference, PreferenceStatus.RETRACTED);
    });
  }

  declinePreference(actor: Actor, locationId: string, id: string, preferenceId: string): Promise<OpenShiftPreference> {
    return this.withPreference(actor, locationId, id, preferenceId, (manager, _shift, preference) =>
      this.transition(manager, preference, PreferenceStatus.DECLINED),
    );
  }

  /** The location of an open shift, whatever its state (live subscribers of a location filter claims on it). */
  async locationOf(organizationId: string, id: string): Promise<string | null> {
    const shift = await this.deps.db
      .getRepository(OpenShift)
      .findOne({ where: { organizationId, id }, select: { id: true, locationId: true }, withDeleted: true });
    return shift?.locationId ?? null;
  }

  /** The preferences of many open shifts (oldest first), for loaders. */
  async preferencesOf(organizationId: string, openShiftIds: readonly string[]): Promise<OpenShiftPreference[][]> {
    const rows = await selectPreferences(this.deps.db.manager, organizationId, openShiftIds);
    return groupByKeys(openShiftIds, rows, (p) => p.openShiftId);
  }

  /** The preferences of an open shift the actor may see: drafts (`isDraft`) or published ones. */
  visiblePreferences(actor: Actor, preferences: OpenShiftPreference[], isDraft: boolean): OpenShiftPreference[] {
    const mine = (p: OpenShiftPreference) => seesDrafts(actor) || p.staffId === actor.staffId;
    return preferences.filter((p) => p.isDraft === isDraft && mine(p));
  }

  /** Runs `work` in a transaction holding the open shift's row lock. */
  withShift<T>(actor: Actor, locationId: string, id: string, work: (manager: EntityManager, shift: OpenShift, location: Location) => Promise<T>): Promise<T> {
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.locations.get(actor, locationId, { manager });
      const shift = await this.shiftAt(manager, actor, location, id, true);
      return work(manager, shift, location);
    });
  }

  /**
   * Runs `work` with the open shift locked, then the preference (the same order everywhere). With
   * `openShiftId` null the preference names its open shift (bulk assignment).
   */
  withPreference<T>(
    actor: Actor,
    locationId: string,
    openShiftId: string | null,
    preferenceId: string,
    work: (manager: EntityManager, shift: OpenShift, preference: OpenShiftPreference, location: Location) => Promise<T>,
  ): Promise<T> {
    const prefId = requireUuid(preferenceId, "Preference");
    return this.deps.unitOfWork.run(async (manager) => {
      const located = await findOneBy(manager, OpenShiftPreference, { organizationId: actor.organizationId, id: prefId });
      if (!located || (openShiftId !== null && located.openShiftId !== openShiftId.toLowerCase())) throw notFound("Preference");
      const location = await this.locations.get(actor, locationId, { manager });
      const shift = await this.shiftAt(manager, actor, location, located.openShiftId, true);
      const preference = await findOneBy(manager, OpenShiftPreference, { id: prefId }, { lock: "update" });
      if (!preference || (!seesDrafts(actor) && preference.staffId !== actor.staffId)) throw notFound("Preference");
      return work(manager, shift, preference, location);
    });
  }

  /** A worker may claim a place of the locked open shift: it is published and not full. */
  requireClaimable(shift: OpenShift): void {
    if (shift.isDraft) throw conflict("The open shift is not published yet");
    if (shift.isFullyClaimed) throw full(shift);
  }

  /** Takes a place of the locked open shift, in the caller's transaction; a full one is refused. */
  async takePlace(manager: EntityManager, shift: OpenShift): Promise<void> {
    const taken = await takePlace(manager, shift.organizationId, shift.id, this.deps.clock.now());
    if (!taken.length) throw full(shift);
  }

  /**
   * A new PENDING preference of the worker for the locked shift, or their retracted one reopened;
   * any other existing preference is a conflict.
   */
  async openPreference(manager: EntityManager, actor: Actor, shift: OpenShift, staffId: string, value: PreferenceValue): Promise<OpenShiftPreference> {
    if (shift.isDraft && !can(actor, "schedules:write")) throw notFound("Open shift");
    await this.requireEligible(manager, shift, staffId);
    const repo = manager.getRepository(OpenShiftPreference);
    const existing = await findOneBy(
      manager,
      OpenShiftPreference,
      { organizationId: actor.organizationId, openShiftId: shift.id, staffId },
      { lock: "update" },
    );
    if (existing && existing.status !== PreferenceStatus.RETRACTED)
      throw conflict(`The worker already has a ${existing.status} preference for this open shift`);
    return Object.assign(existing ?? repo.create({ organizationId: actor.organizationId, openShiftId: shift.id, staffId, scheduleShiftId: null }), {
      preference: value,
      status: PreferenceStatus.PENDING,
      isDraft: shift.isDraft,
    });
  }

  /** Only PENDING preferences move on (to RETRACTED, DECLINED or REMOVED). */
  transition(manager: EntityManager, preference: OpenShiftPreference, to: PreferenceStatus): Promise<OpenShiftPreference> {
    if (preference.status !== PreferenceStatus.PENDING) throw conflict(`A ${preference.status} preference cannot become ${to}`);
    preference.status = to;
    return this.savePreference(manager, preference);
  }

  savePreference(manager: EntityManager, preference: OpenShiftPreference): Promise<OpenShiftPreference> {
    return manager.getRepository(OpenShiftPreference).save(preference);
  }

  /** The preference as it now stands in the caller's transaction (after a removed entry gave its place back). */
  reloadPreference(manager: EntityManager, preference: OpenShiftPreference): Promise<OpenShiftPreference> {
    return findOneByOrFail(manager, OpenShiftPreference, { id: preference.id });
  }

  /** The worker must be eligible for the open shift: what the eligibility check refuses, a claim and an assignment refuse. */
  async requireEligible(manager: EntityManager, shift: OpenShift, staffId: string): Promise<void> {
    const { organizationId, locationId, roleId, startsAt: start, endsAt: end } = shift;
    const breaks = await breakTypesOf(manager, organizationId, locationId, shift.breakTypeIds, "breaks");
    const unpaidBreakMinutes = breaks.filter((b) => !b.paid).reduce((sum, b) => sum + b.durationMinutes, 0);
    await requireEligible(
      manager,
      { organizationId, locationId, timeZone: shift.timezone, roleId, start, end, unpaidBreakMinutes, now: this.deps.clock.now() },
      staffId,
    );
  }

  private requireOwnOrManager(actor: Actor, preference: OpenShiftPreference): void {
    requireSelfOr(actor, "schedules:write", "openshifts:claim", preference.staffId);
  }

  private times(location: Location, startDate: string, endDate: string): { startsAt: Date; endsAt: Date } {
    const startsAt = parseTimestamp(startDate, location.timezone, "startDate");
    const endsAt = parseTimestamp(endDate, location.timezone, "endDate");
    if (endsAt <= startsAt) throw invalidField("endDate", "endDate must be after startDate");
    if (endsAt.getTime() - startsAt.getTime() > MAX_PLANNED_MINUTES * 60000) throw invalidField("endDate", "An open shift may last at most 24 hours");
    return { startsAt, endsAt };
  }

  /** An open shift of the location the actor may see (workers: published ones only). */
  private async shiftAt(manager: EntityManager, actor: Actor, location: Location, id: string, lock = false): Promise<OpenShift> {
    const shift = await selectOpenShift(manager, actor.organizationId, location.id, requireUuid(id, "Open shift"), !seesDrafts(actor), lock);
    if (!shift) throw notFound("Open shift");
    return inZone([shift], location.timezone)[0];
  }
}
