import { EntityManager } from "typeorm";
import { Actor, can, ownRecordsOnly, requireSelfOr } from "../../../auth/actor";
import { requireUuid } from "../../../common/ids";
import { requireInOrganization } from "../../../common/tenant-records";
import { ServiceDeps } from "../../../common/services";
import { addDays, formatLocal, parseDate, parseDateRange, startOfLocalDay } from "../../../common/time";
import { rejectNulls } from "../../../common/validation";
import { conflict, invalidField, notFound } from "../../../errors/app-error";
import { AvailabilityKindValue, AvailabilityRule, AvailabilitySettings } from "./availability-rule.entity";
import {
  AvailabilityRuleListArgs,
  AvailabilityWindowView,
  CreateAvailabilityRuleInput,
  ResolvedAvailabilityArgs,
  StaffDayAvailability,
  UpdateAvailabilityRuleInput,
  UpdateAvailabilitySettingsInput,
} from "./availability-rule.graphql";
import { AvailabilityStatus, AvailabilityWindow, parseWallTime, RuleTimes } from "./availability-rule.rules";
import { moveRuleStatus, selectActiveStaffIds, selectRequiresApproval, selectRulesOf, selectTimeZone, upsertRequiresApproval } from "./availability-rule.store";
import { availabilityWindows } from "./availability-windows";
import { findOneBy, findOneByOrFail } from "../../../common/entity-reads";

const LABEL = "Availability rule";

type RuleFields = CreateAvailabilityRuleInput | UpdateAvailabilityRuleInput;

/**
 * Staff members' availability rules, their approval, and the view of each person's days. A worker
 * writes their own; a manager (`availability:manage`) anyone's, approved at once.
 */
export class AvailabilityRuleService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(actor: Actor, staffId: string, args: AvailabilityRuleListArgs): Promise<AvailabilityRule[]> {
    const id = await this.staffMember(actor, staffId, "read");
    return selectRulesOf(this.deps.db.manager, actor.organizationId, id, args.status);
  }

  async get(actor: Actor, staffId: string, id: string): Promise<AvailabilityRule> {
    const owner = await this.staffMember(actor, staffId, "read");
    return this.rule(this.deps.db.manager, actor, owner, id);
  }

  async create(actor: Actor, staffId: string, input: CreateAvailabilityRuleInput): Promise<AvailabilityRule> {
    const owner = await this.staffMember(actor, staffId, "write");
    const times = this.times(input, emptyTimes());
    return this.deps.unitOfWork.run(async (manager) => {
      const templateId = await this.templateId(manager, actor, input.kind, input.templateId ?? null);
      const repo = manager.getRepository(AvailabilityRule);
      const status = await this.statusOfWrite(manager, actor);
      const saved = await repo.save(
        repo.create({
          organizationId: actor.organizationId,
          staffId: owner,
          kind: input.kind,
          ...times,
          templateId,
          weight: input.weight ?? 1,
          note: input.note ?? null,
          status,
          decidedBy: status === "APPROVED" ? actor.staffId : null,
          decidedAt: status === "APPROVED" ? this.deps.clock.now() : null,
          createdBy: actor.staffId,
        }),
      );
      return repo.findOneByOrFail({ organizationId: actor.organizationId, id: saved.id });
    });
  }

  async update(actor: Actor, staffId: string, id: string, input: UpdateAvailabilityRuleInput): Promise<AvailabilityRule> {
    rejectNulls(input);
    const owner = await this.staffMember(actor, staffId, "write");
    return this.deps.unitOfWork.run(async (manager) => {
      const rule = await this.rule(manager, actor, owner, id, true);
      const kind = input.kind ?? rule.kind;
      Object.assign(rule, this.times(input, rule));
      rule.kind = kind;
      rule.templateId = await this.templateId(
        manager,
        actor,
        kind as AvailabilityKindValue,
        input.templateId !== undefined ? input.templateId : rule.templateId,
      );
      if (input.weight !== undefined) rule.weight = input.weight;
      if (input.note !== undefined) rule.note = input.note;
      const status = await this.statusOfWrite(manager, actor);
      rule.status = status;
      rule.decidedBy = status === "APPROVED" ? actor.staffId : null;
      rule.decidedAt = status === "APPROVED" ? this.deps.clock.now() : null;
      await manager.getRepository(AvailabilityRule).save(rule);
      return findOneByOrFail(manager, AvailabilityRule, { organizationId: actor.organizationId, id: rule.id });
    });
  }

  async delete(actor: Actor, staffId: string, id: string): Promise<boolean> {
    const owner = await this.staffMember(actor, staffId, "write");
    const rule = await this.rule(this.deps.db.manager, actor, owner, id);
    await this.deps.unitOfWork.run((manager) => manager.delete(AvailabilityRule, { organizationId: actor.organizationId, id: rule.id }));
    return true;
  }

  /** Approves or declines a pending rule; of two managers deciding at once, the second gets a 409. */
  async decide(actor: Actor, staffId: string, id: string, to: "APPROVED" | "DECLINED"): Promise<AvailabilityRule> {
    const owner = await this.staffMember(actor, staffId, "read");
    return this.deps.unitOfWork.run(async (manager) => {
      const rule = await this.rule(manager, actor, owner, id);
      if (!(await moveRuleStatus(manager, actor.organizationId, rule.id, "PENDING", to, actor.staffId, this.deps.clock.now()))) {
        const now = await this.rule(manager, actor, owner, id);
        throw conflict(`The rule is ${now.status}; only a PENDING rule can be ${to === "APPROVED" ? "approved" : "declined"}`);
      }
      return this.rule(manager, actor, owner, id);
    });
  }

  async settings(actor: Actor): Promise<AvailabilitySettings> {
    return { organizationId: actor.organizationId, availabilityRequiresApproval: await selectRequiresApproval(this.deps.db.manager, actor.organizationId) };
  }

  async updateSettings(actor: Actor, input: UpdateAvailabilitySettingsInput): Promise<AvailabilitySettings> {
    rejectNulls(input);
    const requiresApproval = input.availabilityRequiresApproval;
    if (requiresApproval !== undefined) await this.deps.unitOfWork.run((manager) => upsertRequiresApproval(manager, actor.organizationId, requiresApproval));
    return this.settings(actor);
  }

  /**
   * Each staff member's days in the range, in the location's time zone (the organization's
   * without a location): the windows they cannot work and their preferences. A worker without
   * `availability:read` sees only their own.
   */
  async resolved(actor: Actor, args: ResolvedAvailabilityArgs): Promise<StaffDayAvailability[]> {
    const { start, end } = parseDateRange(args.startDate, args.endDate);
    const org = actor.organizationId;
    const own = ownRecordsOnly(actor, "availability:read", "availability:self");
    const locationId = args.locationId ? requireUuid(args.locationId, "Location") : null;
    const zone = await selectTimeZone(this.deps.db.manager, org, locationId);
    if (!zone) throw notFound("Location");
    const requested = args.staffId ? requireUuid(args.staffId, "Staff member") : undefined;
    if (own && requested && requested !== own) throw notFound("Staff member");
    const staffIds = await selectActiveStaffIds(this.deps.db.manager, org, { locationId: locationId ?? undefined, staffId: own ?? requested });
    const windows = await availabilityWindows(this.deps.db.manager, {
      organizationId: org,
      staffIds,
      from: startOfLocalDay(start, zone),
      until: startOfLocalDay(addDays(end, 1), zone),
      timeZone: zone,
    });
    const days: StaffDayAvailability[] = [];
    for (const staffId of staffIds) {
      for (let date = start; date <= end; date = addDays(date, 1)) {
        const dayStart = startOfLocalDay(date, zone);
        const dayEnd = startOfLocalDay(addDays(date, 1), zone);
        const onDay = windows.filter((w) => w.staffId === staffId && w.start < dayEnd && w.end > dayStart);
        const unavailable = onDay.filter((w) => w.kind === "UNAVAILABLE");
        days.push({
          staffId,
          date,
          available: !unavailable.some((w) => w.start <= dayStart && w.end >= dayEnd),
          unavailable: unavailable.map((w) => viewOf(w, zone)),
          preferences: onDay.filter((w) => w.kind !== "UNAVAILABLE" && w.date === date).map((w) => viewOf(w, zone)),
        });
      }
    }
    return days;
  }

  /** The staff member of the path, checked: a worker acts on their own rules only (another's is a 404 to read, a 403 to write). */
  private async staffMember(actor: Actor, staffId: string, intent: "read" | "write"): Promise<string> {
    const id = requireUuid(staffId, "Staff member");
    const all = intent === "read" && can(actor, "availability:read") ? "availability:read" : "availability:manage";
    if (intent === "read" && !can(actor, all) && actor.staffId !== id) throw notFound("Staff member");
    requireSelfOr(actor, all, "availability:self", id);
    const rows: unknown[] = await this.deps.db.query("SELECT 1 FROM staff_members WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL", [
      actor.organizationId,
      id,
    ]);
    if (rows.length === 0) throw notFound("Staff member");
    return id;
  }

  private async rule(manager: EntityManager, actor: Actor, staffId: string, id: string, lock = false): Promise<AvailabilityRule> {
    const rule = await findOneBy(
      manager,
      AvailabilityRule,
      { organizationId: actor.organizationId, staffId, id: requireUuid(id, LABEL) },
      { lock: lock ? "update" : undefined },
    );
    if (!rule) throw notFound(LABEL);
    return rule;
  }

  /** A manager's rule counts at once; a worker's waits for approval where the organization asks for it. */
  private async statusOfWrite(manager: EntityManager, actor: Actor): Promise<AvailabilityStatus> {
    if (can(actor, "availability:manage")) return "APPROVED";
    return (await selectRequiresApproval(manager, actor.organizationId)) ? "PENDING" : "APPROVED";
  }

  /** The rule's days and times after applying `input` to `current`, checked as a whole. */
  private times(input: RuleFields, current: RuleTimes): RuleTimes {
    const date = input.date !== undefined ? input.date : current.date;
    const weekdays = (input.weekdays !== undefined ? (input.weekdays as RuleTimes["weekdays"]) : current.weekdays) ?? null;
    // Null on either end (the other left out) clears the window: the rule becomes whole-day.
    const wholeDay = (input.startTime === null && typeof input.endTime !== "string") || (input.endTime === null && typeof input.startTime !== "string");
    const startTime = wholeDay ? null : input.startTime !== undefined ? input.startTime : current.startMinute;
    const endTime = wholeDay ? null : input.endTime !== undefined ? input.endTime : current.endMinute;
    const startMinute = typeof startTime === "string" ? parseWallTime(startTime, "startTime") : (startTime ?? null);
    const endMinute = typeof endTime === "string" ? parseWallTime(endTime, "endTime") : (endTime ?? null);
    const effectiveFrom = input.effectiveFrom !== undefined ? input.effectiveFrom : current.effectiveFrom;
    const effectiveUntil = input.effectiveUntil !== undefined ? input.effectiveUntil : current.effectiveUntil;
    if (date !== null) parseDate(date, "date");
    if (effectiveFrom !== null) parseDate(effectiveFrom, "effectiveFrom");
    if (effectiveUntil !== null) parseDate(effectiveUntil, "effectiveUntil");
    if ((date === null) === (weekdays === null || weekdays.length === 0))
      throw invalidField("date", "Give either date (one day) or weekdays (weekly), not both");
    if (date !== null && (effectiveFrom !== null || effectiveUntil !== null))
      throw invalidField("effectiveFrom", "A one-day rule has no effective range; it applies on its date");
    if ((startMinute === null) !== (endMinute === null))
      throw invalidField(startMinute === null ? "startTime" : "endTime", "Give both startTime and endTime, or neither for the whole day");
    if (startMinute !== null && startMinute === endMinute)
      throw invalidField("endTime", "endTime must differ from startTime (leave both out for the whole day)");
    if (effectiveFrom !== null && effectiveUntil !== null && effectiveUntil < effectiveFrom)
      throw invalidField("effectiveUntil", "effectiveUntil must not be before effectiveFrom");
    return { date, weekdays: weekdays && weekdays.length ? [...new Set(weekdays)] : null, startMinute, endMinute, effectiveFrom, effectiveUntil };
  }

  /**
   * Only a preference may name a template: unavailability holds for every shift. A template of
   * another organization is unknown here, as one that does not exist.
   */
  private async templateId(manager: EntityManager, actor: Actor, kind: AvailabilityKindValue, templateId: string | null): Promise<string | null> {
    if (templateId === null) return null;
    if (kind === AvailabilityKindValue.UNAVAILABLE) throw invalidField("templateId", "Only a PREFER_ON or PREFER_OFF rule can name a shift template");
    const [id] = await requireInOrganization(manager, "shift_templates", actor.organizationId, [requireUuid(templateId, "Shift template")], "templateId", {
      message: () => `Unknown shift template ${templateId}`,
    });
    return id;
  }
}

function emptyTimes(): RuleTimes {
  return { date: null, weekdays: null, startMinute: null, endMinute: null, effectiveFrom: null, effectiveUntil: null };
}

function viewOf(w: AvailabilityWindow, zone: string): AvailabilityWindowView {
  return {
    kind: w.kind as AvailabilityKindValue,
    source: w.source,
    sourceId: w.sourceId,
    startTime: formatLocal(w.start, zone),
    endTime: formatLocal(w.end, zone),
    wholeDay: w.wholeDay,
    weight: w.weight,
    templateId: w.templateId,
  };
}
