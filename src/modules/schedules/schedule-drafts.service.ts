import { refuseUnavailable } from "../availability";
import { EntityManager } from "typeorm";
import { DateTime } from "luxon";
import { Actor } from "../../auth/actor";
import { filterId, requireUuid } from "../../common/ids";
import { Page, paginate } from "../../common/pagination";
import { addDays, daysBetween, parseDate, parseDateRange, startOfLocalDay } from "../../common/time";
import { ServiceDeps } from "../../common/services";
import { conflict, invalidField, notFound } from "../../errors/app-error";
import { Location } from "../locations";
import type { EntryChange } from "../compliance";
import { dayBounds, inZone, startingWithin } from "./planned-time";
import { assertNoApprovedTimeOff, planOf, resolvePlan } from "./schedule-plans";
import {
  breaksOf,
  checkOverlapNow,
  deferOverlapCheck,
  deleteDrafts,
  deleteDraftsWithin,
  GeneratedDraft,
  insertAddDrafts,
  insertBreaks,
  locationDrafts,
  locationEntries,
  lockEntries,
  moveDraftBreaks,
  replaceBreaks,
  selectCountsByDayAndTemplate,
  selectDraft,
  ShiftPlan,
  PlannedAround,
  PlannedShiftRow,
  selectPlannedShifts,
  TemplateDayCount,
  updateEntryPlans,
  whereStaffAndRole,
} from "./schedule.store";
import { DraftAction, ScheduleBreak, ScheduleDraft, ScheduleEntry } from "./schedule.entity";
import { BulkCopyResult, BulkCopyScheduleInput, CreateScheduleDraftInput, ScheduleListArgs, UpdateScheduleDraftInput } from "./schedule.inputs";
import { removeEntries, ScheduleService } from "./schedule.service";

export type { GeneratedDraft, PlannedShiftRow, TemplateDayCount } from "./schedule.store";

/**
 * The schedule as publishing would leave it, counted per local day and template: published
 * entries without a draft, and the drafts that add or change one (a removal counts nothing).
 */
export function countByDayAndTemplate(manager: EntityManager, location: Location, bounds: { from: Date; to: Date }): Promise<TemplateDayCount[]> {
  return selectCountsByDayAndTemplate(manager, location.organizationId, location.id, location.timezone, bounds);
}

/** Stores a generation's ADD drafts with their breaks, in the caller's transaction; answers their ids in order. */
export function insertGeneratedDrafts(manager: EntityManager, organizationId: string, locationId: string, drafts: GeneratedDraft[]): Promise<string[]> {
  return insertAddDrafts(manager, organizationId, locationId, drafts);
}

/**
 * The entries and drafts of these people starting in the range, at any location, as a generation
 * plans around them; a location being re-planned (`replacedLocationId`) contributes no drafts.
 */
export function plannedShiftsAround(manager: EntityManager, organizationId: string, around: PlannedAround): Promise<PlannedShiftRow[]> {
  return selectPlannedShifts(manager, organizationId, around);
}

/** Deletes a location's drafts that start in the range (a generation replacing them), in the caller's transaction. */
export function deleteDraftsStartingWithin(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  bounds: { from: Date; to: Date },
): Promise<void> {
  return deleteDraftsWithin(manager, organizationId, locationId, bounds);
}

/** The drafts a publish applies, locked, and the published entry each changes or removes. */
export interface DraftsToPublish {
  drafts: ScheduleDraft[];
  entryOf(draft: ScheduleDraft): ScheduleEntry;
}

/** What applying drafts wrote, and each draft's change of the published schedule (for predictability pay). */
export interface AppliedDrafts {
  removed: ScheduleEntry[];
  changed: ScheduleEntry[];
  added: ScheduleEntry[];
  changes: EntryChange[];
}

const PLAN_FIELDS = ["workerId", "roleId", "startTime", "endTime", "breaks", "note"] as const;

/** The same wall time `days` calendar days later in `zone` (across a daylight-saving change too). */
function shiftLocal(instant: Date, zone: string, days: number): Date {
  return DateTime.fromJSDate(instant, { zone }).plus({ days }).toJSDate();
}

/**
 * Managers plan a location's schedule as drafts: additions, changes and removals of published
 * entries. Publishing a date range applies every draft in it at once.
 */
export class ScheduleDraftService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly schedule: ScheduleService,
  ) {}

  async list(actor: Actor, args: ScheduleListArgs): Promise<Page<ScheduleDraft>> {
    const location = await this.schedule.locations.get(actor, args.locationId);
    const query = startingWithin(
      locationDrafts(this.deps.db.manager, actor.organizationId, location.id),
      dayBounds(args.startDate, args.endDate, location.timezone),
    );
    whereStaffAndRole(query, filterId(args.workerId, "workerId"), filterId(args.roleId, "roleId"));
    const page = await paginate(query, args, { property: "startsAt", column: "start_time" });
    inZone(page.nodes, location.timezone);
    return page;
  }

  async get(actor: Actor, locationId: string, id: string): Promise<ScheduleDraft> {
    const location = await this.schedule.locations.get(actor, locationId);
    return this.draftAt(this.deps.db.manager, actor, location, id);
  }

  create(actor: Actor, locationId: string, input: CreateScheduleDraftInput): Promise<ScheduleDraft> {
    const action = input.action ?? (input.entryId ? DraftAction.CHANGE : DraftAction.ADD);
    if (action === DraftAction.ADD && input.entryId) throw invalidField("entryId", "A draft that adds an entry has no entryId; use action CHANGE or REMOVE");
    if (action !== DraftAction.ADD && !input.entryId) throw invalidField("entryId", `A ${action} draft needs the entryId of a published entry`);
    if (action === DraftAction.REMOVE) {
      const given = PLAN_FIELDS.filter((f) => input[f] !== undefined);
      if (given.length) throw invalidField(given[0], "A REMOVE draft takes only entryId");
    }
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.schedule.locations.get(actor, locationId, { manager });
      let base: ShiftPlan | null = null;
      if (input.entryId) {
        const entry = await this.schedule.entryAt(manager, actor, location, input.entryId);
        const [breaks] = await breaksOf(manager, actor.organizationId, "entryId", [entry.id]);
        base = planOf(entry, breaks);
      }
      const plan = action === DraftAction.REMOVE ? base! : await resolvePlan(manager, actor, location, base, input);
      const repo = manager.getRepository(ScheduleDraft);
      const { breaks, ...fields } = plan;
      const draft = await repo.save(
        repo.create({ organizationId: actor.organizationId, locationId: location.id, action, entryId: input.entryId?.toLowerCase() ?? null, ...fields }),
      );
      await replaceBreaks(manager, actor.organizationId, { draftId: draft.id }, breaks);
      return inZone([draft], location.timezone)[0];
    });
  }

  update(actor: Actor, locationId: string, id: string, input: UpdateScheduleDraftInput): Promise<ScheduleDraft> {
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.schedule.locations.get(actor, locationId, { manager });
      const draft = await this.draftAt(manager, actor, location, id, true);
      if (draft.action === DraftAction.REMOVE) throw conflict("A REMOVE draft has nothing to change; delete it to keep the entry");
      const [breaks] = await breaksOf(manager, actor.organizationId, "draftId", [draft.id]);
      const { breaks: planned, ...fields } = await resolvePlan(manager, actor, location, planOf(draft, breaks), input);
      const saved = await manager.getRepository(ScheduleDraft).save(Object.assign(draft, fields));
      if (input.breaks !== undefined) await replaceBreaks(manager, actor.organizationId, { draftId: draft.id }, planned);
      return saved;
    });
  }

  async delete(actor: Actor, locationId: string, id: string): Promise<boolean> {
    const location = await this.schedule.locations.get(actor, locationId);
    const draft = await this.draftAt(this.deps.db.manager, actor, location, id);
    await this.deps.unitOfWork.run((manager) => manager.delete(ScheduleDraft, { organizationId: actor.organizationId, id: draft.id }));
    return true;
  }

  /**
   * The first step of publishing (`workflows/schedule-publishing.ts`): the location's drafts that
   * start within the bounds and the published entries they change or remove, all locked until
   * commit; the overlap constraint waits for commit, so that entries may swap times.
   */
  async lockForPublishing(manager: EntityManager, organizationId: string, locationId: string, bounds: { from: Date; to: Date }): Promise<DraftsToPublish> {
    await deferOverlapCheck(manager);
    const drafts = await startingWithin(locationDrafts(manager, organizationId, locationId), bounds)
      .orderBy("r.start_time")
      .addOrderBy("r.id")
      .setLock("pessimistic_write")
      .getMany();
    const entries = await this.lockEntries(
      manager,
      organizationId,
      drafts.map((d) => d.entryId).filter((id): id is string => id !== null),
    );
    const entryOf = (draft: ScheduleDraft): ScheduleEntry => {
      const entry = entries.get(draft.entryId!);
      if (!entry) throw conflict(`The entry ${draft.entryId} of draft ${draft.id} was removed meanwhile`);
      return entry;
    };
    return { drafts, entryOf };
  }

  /**
   * Applies locked drafts: removals, then changes, then additions, each draft's planned breaks
   * becoming its entry's. Answers the entries and each draft's change for predictability pay.
   */
  async applyDrafts(
    manager: EntityManager,
    organizationId: string,
    location: Location,
    { drafts, entryOf }: DraftsToPublish,
    now: Date,
  ): Promise<AppliedDrafts> {
    const byAction = (action: DraftAction) => drafts.filter((d) => d.action === action);
    const changes: EntryChange[] = drafts.map((d) => ({
      entryId: d.entryId!,
      staffId: d.staffId,
      roleId: d.roleId,
      before: d.entryId ? { startsAt: entryOf(d).startsAt, endsAt: entryOf(d).endsAt } : null,
      after: d.action === DraftAction.REMOVE ? null : { startsAt: d.startsAt, endsAt: d.endsAt },
    }));

    const removed = byAction(DraftAction.REMOVE).map(entryOf);
    await removeEntries(manager, organizationId, removed, now);
    // A statement for each step, whatever the number of drafts: a week's publish is hundreds.
    const changing = byAction(DraftAction.CHANGE);
    const changed = changing.map((draft) => {
      const { staffId, roleId, startsAt, endsAt, note, templateId } = draft;
      return Object.assign(entryOf(draft), { staffId, roleId, startsAt, endsAt, note, templateId });
    });
    await updateEntryPlans(manager, organizationId, changed);
    const adding = byAction(DraftAction.ADD);
    const repo = manager.getRepository(ScheduleEntry);
    const added = adding.length
      ? await repo.save(
          adding.map(({ staffId, roleId, startsAt, endsAt, note, templateId }) =>
            repo.create({ organizationId, locationId: location.id, staffId, roleId, startsAt, endsAt, note, templateId, openShiftId: null, deletedAt: null }),
          ),
        )
      : [];
    adding.forEach((draft, i) => (changes[drafts.indexOf(draft)].entryId = added[i].id));
    // Each published draft's planned breaks become its entry's.
    await moveDraftBreaks(manager, organizationId, [
      ...changing.map((draft, i) => ({ draftId: draft.id, entryId: changed[i].id })),
      ...adding.map((draft, i) => ({ draftId: draft.id, entryId: added[i].id })),
    ]);
    return { removed, changed, added, changes };
  }

  /**
   * The last step of publishing: the published drafts are gone, no written entry meets its
   * worker's approved time off or falls in their unavailability, and the overlap constraint is
   * checked now, once all are applied.
   */
  async closePublishing(manager: EntityManager, organizationId: string, { drafts }: DraftsToPublish, written: ScheduleEntry[], zone: string): Promise<void> {
    await deleteDrafts(
      manager,
      organizationId,
      drafts.map((d) => d.id),
    );
    await assertNoApprovedTimeOff(manager, organizationId, written, zone);
    await refuseUnavailable(manager, organizationId, zone, written);
    await checkOverlapNow(manager);
  }

  /**
   * Copies the published entries that start in the source range to the same local times
   * `targetStartDate − sourceStartDate` days later, as ADD drafts with their planned breaks.
   */
  bulkCopy(actor: Actor, locationId: string, input: BulkCopyScheduleInput): Promise<BulkCopyResult> {
    const { start, end } = parseDateRange(input.sourceStartDate, input.sourceEndDate, "sourceStartDate", "sourceEndDate");
    const days = daysBetween(start, parseDate(input.targetStartDate, "targetStartDate"));
    if (days === 0) throw invalidField("targetStartDate", "targetStartDate must differ from sourceStartDate");
    const org = actor.organizationId;
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.schedule.locations.get(actor, locationId, { manager });
      const zone = location.timezone;
      const sources = await startingWithin(locationEntries(manager, org, location.id), {
        from: startOfLocalDay(start, zone),
        to: startOfLocalDay(addDays(end, 1), zone),
      })
        .orderBy("r.start_time")
        .addOrderBy("r.id")
        .getMany();
      const sourceBreaks = await breaksOf(
        manager,
        org,
        "entryId",
        sources.map((e) => e.id),
      );
      const repo = manager.getRepository(ScheduleDraft);
      const drafts = await repo.save(
        sources.map((e) =>
          repo.create({
            organizationId: org,
            locationId: location.id,
            action: DraftAction.ADD,
            entryId: null,
            staffId: e.staffId,
            roleId: e.roleId,
            startsAt: shiftLocal(e.startsAt, zone, days),
            endsAt: shiftLocal(e.endsAt, zone, days),
            note: e.note,
            templateId: e.templateId,
          }),
        ),
      );
      await insertBreaks(
        manager,
        org,
        drafts.map((draft, i) => ({
          owner: { draftId: draft.id },
          breaks: planOf(sources[i], sourceBreaks[i]).breaks.map((b) => ({ ...b, startsAt: b.startsAt && shiftLocal(b.startsAt, zone, days) })),
        })),
      );
      return { drafts: inZone(drafts, zone) };
    });
  }

  /** The planned breaks of many drafts, for loaders. */
  breaksOfDrafts(organizationId: string, ids: readonly string[]): Promise<ScheduleBreak[][]> {
    return breaksOf(this.deps.db.manager, organizationId, "draftId", ids);
  }

  private async draftAt(manager: EntityManager, actor: Actor, location: Location, id: string, lock = false): Promise<ScheduleDraft> {
    const draft = await selectDraft(manager, actor.organizationId, location.id, requireUuid(id, "Draft"), lock);
    if (!draft) throw notFound("Draft");
    return inZone([draft], location.timezone)[0];
  }

  private async lockEntries(manager: EntityManager, organizationId: string, ids: string[]): Promise<Map<string, ScheduleEntry>> {
    if (!ids.length) return new Map();
    const rows = await lockEntries(manager, organizationId, ids);
    return new Map(rows.map((e) => [e.id, e]));
  }
}
