import { EntityManager } from "typeorm";
import { Actor, ownRecordsOnly } from "../../auth/actor";
import { filterId, isUuid, requireUuid } from "../../common/ids";
import { Page, paginate } from "../../common/pagination";
import { TenantRecords } from "../../common/tenant-records";
import { ServiceDeps } from "../../common/services";
import { forbidden, notFound } from "../../errors/app-error";
import { recordPredictabilityPay } from "../compliance";
import { Location } from "../locations";
import { readTogether } from "../../database/read-together";
import { dayBounds, inZone, startingWithin } from "./planned-time";
import { assertNoApprovedTimeOff, planOf, resolvePlan } from "./schedule-plans";
import {
  breaksOf,
  deleteDraftsOfEntries,
  insertEntry,
  locationEntries,
  lockOpenShifts,
  lowerAcceptedCounts,
  releaseAcceptedPreferences,
  replaceBreaks,
  selectEntries,
  selectEntry,
  ShiftPlan,
  softDeleteEntries,
  updateEntryWorkers,
  whereStaffAndRole,
} from "./schedule.store";
import { ScheduleBreak, ScheduleEntry } from "./schedule.entity";
import { CreateScheduleEntryInput, ScheduleListArgs, UpdateScheduleEntryInput } from "./schedule.inputs";
import { findOneByOrFail } from "../../common/entity-reads";

/**
 * Marks entries removed and gives back the open-shift places they held: their accepted
 * preferences become REMOVED and the open shifts count one worker less. The open shifts are locked
 * first, in id order, the same order acceptance takes.
 */
export async function removeEntries(manager: EntityManager, organizationId: string, entries: ScheduleEntry[], now: Date): Promise<void> {
  if (!entries.length) return;
  const ids = entries.map((e) => e.id);
  const openShiftIds = [...new Set(entries.map((e) => e.openShiftId).filter((id): id is string => id !== null))].sort();
  if (openShiftIds.length) {
    await lockOpenShifts(manager, organizationId, openShiftIds);
    const released = await releaseAcceptedPreferences(manager, organizationId, ids, now);
    await lowerAcceptedCounts(manager, organizationId, released, now);
  }
  await softDeleteEntries(manager, organizationId, ids, now);
  await deleteDraftsOfEntries(manager, organizationId, ids);
}

/**
 * Hands published entries to other workers (a swap or a cover), in the caller's transaction. One
 * statement moves them all, and the no-double-booking constraint (deferrable, so checked at the end of
 * a statement) holds once all have moved: two entries at the same hours can trade workers.
 */
export async function reassignEntries(manager: EntityManager, organizationId: string, moves: { entryId: string; staffId: string }[], now: Date): Promise<void> {
  await updateEntryWorkers(manager, organizationId, moves, now);
}

/** The published schedule: a location's entries, read by managers and by each worker for themselves. */
export class ScheduleService {
  readonly locations: TenantRecords<Location>;

  constructor(private readonly deps: ServiceDeps) {
    this.locations = new TenantRecords(deps, Location, "Location");
  }

  async list(actor: Actor, args: ScheduleListArgs): Promise<Page<ScheduleEntry>> {
    const only = ownRecordsOnly(actor, "schedules:read", "schedules:self");
    const staffId = filterId(args.workerId, "workerId");
    if (only && staffId && staffId !== only) throw forbidden('Reading another worker\'s schedule needs the "schedules:read" permission');
    const location = await this.locations.get(actor, args.locationId);
    const query = startingWithin(
      locationEntries(this.deps.db.manager, actor.organizationId, location.id),
      dayBounds(args.startDate, args.endDate, location.timezone),
    );
    whereStaffAndRole(query, only ?? staffId, filterId(args.roleId, "roleId"));
    const page = await paginate(query, args, { property: "startsAt", column: "start_time" });
    inZone(page.nodes, location.timezone);
    return page;
  }

  /**
   * Published entries by location and id, each as its GET answers it or the error it refuses with
   * (read through a loader, schedule.loaders.ts): many GETs at once (the events of a publish) read
   * their locations and their entries in a statement each.
   */
  async getMany(actor: Actor, keys: readonly { locationId: string; id: string }[]): Promise<(ScheduleEntry | Error)[]> {
    const only = ownRecordsOnly(actor, "schedules:read", "schedules:self");
    const org = actor.organizationId;
    const locationIds = [...new Set(keys.map((k) => k.locationId.toLowerCase()).filter(isUuid))];
    const ids = [...new Set(keys.map((k) => k.id.toLowerCase()).filter(isUuid))];
    const [locations, entries] = await readTogether(
      this.deps.db.manager,
      () => this.locations.byIds(org, locationIds),
      () => selectEntries(this.deps.db.manager, org, ids),
    );
    const locationOf = new Map(locations.flatMap((l) => (l ? [[l.id, l] as const] : [])));
    const entryOf = new Map(entries.map((e) => [e.id, e]));
    return keys.map(({ locationId, id }) => {
      const location = locationOf.get(locationId.toLowerCase());
      if (!location) return notFound(this.locations.label);
      const entry = entryOf.get(id.toLowerCase());
      // Another worker's entry is not theirs to know about: answer as for an unknown one.
      if (!entry || entry.locationId !== location.id || (only && entry.staffId !== only)) return notFound("Schedule entry");
      return inZone([entry], location.timezone)[0];
    });
  }

  create(actor: Actor, locationId: string, input: CreateScheduleEntryInput): Promise<ScheduleEntry> {
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.locations.get(actor, locationId, { manager });
      const plan = await resolvePlan(manager, actor, location, null, input);
      await assertNoApprovedTimeOff(manager, actor.organizationId, [plan], location.timezone);
      const entry = await insertEntry(manager, actor.organizationId, location.id, plan);
      const recorded = await recordPredictabilityPay(
        manager,
        actor.organizationId,
        location.id,
        [{ entryId: entry.id, staffId: entry.staffId, roleId: entry.roleId, before: null, after: entry }],
        this.deps.clock.now(),
      );
      return Object.assign(inZone([entry], location.timezone)[0], { recordedChangePay: recorded.get(entry.id) ?? [] });
    });
  }

  /** The entry of a worker accepted for an open shift, in the caller's transaction: refused when it meets their approved time off. */
  async placeOpenShift(manager: EntityManager, organizationId: string, location: Location, plan: ShiftPlan, openShiftId: string): Promise<ScheduleEntry> {
    await assertNoApprovedTimeOff(manager, organizationId, [plan], location.timezone);
    return insertEntry(manager, organizationId, location.id, plan, openShiftId);
  }

  /** Removes the entry of a worker accepted for an open shift, in the caller's transaction: their place is given back. */
  async removeOpenShiftEntry(manager: EntityManager, organizationId: string, entryId: string): Promise<void> {
    const entry = await findOneByOrFail(manager, ScheduleEntry, { organizationId, id: entryId });
    await removeEntries(manager, organizationId, [entry], this.deps.clock.now());
  }

  update(actor: Actor, locationId: string, id: string, input: UpdateScheduleEntryInput): Promise<ScheduleEntry> {
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.locations.get(actor, locationId, { manager });
      const entry = await this.entryAt(manager, actor, location, id, true);
      const [breaks] = await breaksOf(manager, actor.organizationId, "entryId", [entry.id]);
      const plan = await resolvePlan(manager, actor, location, planOf(entry, breaks), input);
      await assertNoApprovedTimeOff(manager, actor.organizationId, [plan], location.timezone);
      const { breaks: planned, ...fields } = plan;
      const before = { startsAt: entry.startsAt, endsAt: entry.endsAt };
      const saved = await manager.getRepository(ScheduleEntry).save(Object.assign(entry, fields));
      const recorded = await recordPredictabilityPay(
        manager,
        actor.organizationId,
        location.id,
        [{ entryId: entry.id, staffId: saved.staffId, roleId: saved.roleId, before, after: saved }],
        this.deps.clock.now(),
      );
      if (input.breaks !== undefined) await replaceBreaks(manager, actor.organizationId, { entryId: entry.id }, planned);
      return Object.assign(saved, { recordedChangePay: recorded.get(entry.id) ?? [] });
    });
  }

  /** Removes a published entry at once (its pending drafts go with it). */
  delete(actor: Actor, locationId: string, id: string): Promise<boolean> {
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.locations.get(actor, locationId, { manager });
      const entry = await this.entryAt(manager, actor, location, id, true);
      await removeEntries(manager, actor.organizationId, [entry], this.deps.clock.now());
      await recordPredictabilityPay(
        manager,
        actor.organizationId,
        location.id,
        [{ entryId: entry.id, staffId: entry.staffId, roleId: entry.roleId, before: entry, after: null }],
        this.deps.clock.now(),
      );
      return true;
    });
  }

  /** The planned breaks of many entries, for loaders. */
  breaksOfEntries(organizationId: string, ids: readonly string[]): Promise<ScheduleBreak[][]> {
    return breaksOf(this.deps.db.manager, organizationId, "entryId", ids);
  }

  /** A live entry of the location (locked until commit with `lock`). */
  async entryAt(manager: EntityManager, actor: Actor, location: Location, id: string, lock = false): Promise<ScheduleEntry> {
    const entry = await selectEntry(manager, actor.organizationId, location.id, requireUuid(id, "Schedule entry"), lock);
    if (!entry) throw notFound("Schedule entry");
    return inZone([entry], location.timezone)[0];
  }
}
