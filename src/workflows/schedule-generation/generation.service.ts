import { fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import path from "node:path";
import { EntityManager } from "typeorm";
import { Actor } from "../../auth/actor";
import { isUuid } from "../../common/ids";
import { ScheduledJob, ServiceDeps } from "../../common/services";
import { requireInOrganization, TenantRecords } from "../../common/tenant-records";
import { addDays, parseDateRange, startOfLocalDay } from "../../common/time";
import { conflict, invalidField, unknownReference } from "../../errors/app-error";
import { availabilityWindows, matchesShift } from "../../modules/availability";
import type { AvailabilityWindow } from "../../modules/availability";
import { rulesOf } from "../../modules/compliance";
import { selectRequirements } from "../../modules/coverage-requirements";
import { recordEvent } from "../../modules/events";
import { Location } from "../../modules/locations";
import { roleWages } from "../../modules/roles";
import { breakTypesOf, deleteDraftsStartingWithin, GeneratedDraft, insertGeneratedDrafts, plannedShiftsAround } from "../../modules/schedules";
import { locationTemplates } from "../../modules/shift-templates";
import { plannableStaff } from "../../modules/staff";
import { breaksOn, buildProblem, BuiltProblem, PlannablePerson, TemplateShape } from "./generation-problem";
import { explain } from "./generation-result";
import {
  GenerationMode,
  GenerationProgress,
  GenerationRequest,
  GenerationResult,
  GenerationStatus,
  ScheduleGeneration,
  StoredLimits,
} from "./generation.entity";
import { GenerateScheduleInput, PlanningLimitsInput } from "./generation.inputs";
import { claimGeneration, finishGeneration, renewLease, requestCancel } from "./generation.store";
import { RosterSolution, SearchProgress } from "./solver";
import { findOneByOrFail } from "../../common/entity-reads";
import { outsideTheRequest } from "../../database/request-actor";

const MAX_TAKE_UPS = 3;

/**
 * Schedule generation: a request becomes a queued row; a service process claims it (a lease in
 * the database, renewed while the search runs), builds the problem from the location's
 * templates, coverage, people, planned shifts, availability and labor rules, runs the search in
 * a child process, and writes drafts and the explained result in one transaction, or nothing
 * when the limits cannot all be met or the generation was cancelled.
 */
export class ScheduleGenerationService {
  readonly locations: TenantRecords<Location>;
  private readonly records: TenantRecords<ScheduleGeneration>;
  /** This process, as it signs its claims. */
  readonly processId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly job: ScheduledJob = { name: "schedule generations", intervalMs: 1000, run: () => this.runNext() };

  /** How long a claim holds without renewal: a process that stops renewing (it died) loses the generation after this. */
  private readonly leaseSeconds: number;

  constructor(private readonly deps: ServiceDeps) {
    this.leaseSeconds = deps.config.generationLeaseSeconds;
    this.locations = new TenantRecords(deps, Location, "Location");
    this.records = new TenantRecords(deps, ScheduleGeneration, "Schedule generation");
  }

  /** Queues a generation of the location's range (answered at once; a service process runs it). */
  async request(actor: Actor, locationId: string, input: GenerateScheduleInput): Promise<ScheduleGeneration> {
    const { start, end } = parseDateRange(input.startDate, input.endDate);
    const org = actor.organizationId;
    const location = await this.locations.get(actor, locationId);
    const manager = this.deps.db.manager;
    const templateIds = new Set((await locationTemplates(manager, org, location.id)).map((t) => t.id));
    const staffIds = input.staffIds
      ? await requireInOrganization(manager, "staff_members", org, [...new Set(input.staffIds)], "staffIds", { where: "deleted_at IS NULL" })
      : null;
    const limits = input.limits ?? [];
    const limitStaff = await requireInOrganization(
      manager,
      "staff_members",
      org,
      limits.map((l) => l.staffId),
      "limits.staffId",
      { where: "deleted_at IS NULL" },
    );
    if (new Set(limitStaff).size !== limitStaff.length) throw invalidField("limits", "One set of limits per staff member");
    const request: GenerationRequest = {
      startDate: start,
      endDate: end,
      mode: input.mode ?? GenerationMode.FILL,
      timeLimitSeconds: input.timeLimitSeconds ?? 30,
      seed: input.seed ?? 1,
      staffIds,
      defaultLimits: storedLimits(input.defaultLimits, templateIds, "defaultLimits"),
      limits: limits.map((l, i) => ({ staffId: limitStaff[i], ...storedLimits(l, templateIds, `limits.${i}`) })),
      costWeight: input.costWeight ?? 0,
      allowPremiums: input.allowPremiums ?? false,
    };
    const saved = await this.records.save(
      this.records.repo.create({
        organizationId: org,
        locationId: location.id,
        status: GenerationStatus.QUEUED,
        request,
        progress: null,
        result: null,
        error: null,
        cancelRequested: false,
        attempts: 0,
      }),
    );
    // The process runs the oldest queued generation, not necessarily this one: not as this request's work.
    if (this.deps.config.scheduledJobs) setImmediate(() => outsideTheRequest(() => void this.runNext().catch(() => undefined)));
    return saved;
  }

  get(actor: Actor, id: string): Promise<ScheduleGeneration> {
    return this.records.get(actor, id);
  }

  /** Cancels a queued generation at once; a running one stops within a lease renewal and writes nothing. */
  async cancel(actor: Actor, id: string): Promise<ScheduleGeneration> {
    const generation = await this.get(actor, id);
    await this.deps.unitOfWork.run(async (manager) => {
      const changed = await requestCancel(manager, actor.organizationId, generation.id, this.deps.clock.now());
      if (!changed) throw conflict(`The generation has already ended (${generation.status})`);
      if (changed.status === GenerationStatus.CANCELLED) await recordCompletion(manager, generation, GenerationStatus.CANCELLED, null, null);
    });
    return this.get(actor, id);
  }

  /** Claims the oldest generation no live process holds and runs it to its end; answers its id, or null when there was none. */
  async runNext(): Promise<string | null> {
    const claimed = await this.deps.unitOfWork.run((manager) => claimGeneration(manager, this.processId, this.leaseSeconds, this.deps.clock.now()));
    if (!claimed) return null;
    const claimedAt = Date.now();
    try {
      if (claimed.cancelRequested) await this.finish(claimed, GenerationStatus.CANCELLED, null, null);
      else if (claimed.attempts > MAX_TAKE_UPS) await this.finish(claimed, GenerationStatus.FAILED, null, `Taken up ${MAX_TAKE_UPS} times without finishing`);
      else await this.run(claimed, claimedAt);
    } catch (error) {
      await this.finish(claimed, GenerationStatus.FAILED, null, error instanceof Error ? error.message : String(error)).catch(() => undefined);
      throw error;
    }
    return claimed.id;
  }

  private async run(generation: ScheduleGeneration, claimedAt: number): Promise<void> {
    const { request } = generation;
    const built = await this.build(generation);
    // The search gets what is left of the time limit once the problem is built (writing the drafts takes well under a second).
    const timeLimitMs = Math.max(200, request.timeLimitSeconds * 1000 - (Date.now() - claimedAt));
    const outcome = await this.search(generation, built, timeLimitMs);
    if (outcome === "LOST") return;
    if (outcome === "CANCELLED") return void (await this.finish(generation, GenerationStatus.CANCELLED, null, null));
    if (outcome.violations.length) {
      const result = explain(built, outcome, []);
      const rules = [...new Set(result.hardViolations.map((v) => v.rule))].join(", ");
      return void (await this.finish(generation, GenerationStatus.FAILED, result, `The limits cannot all be met (${rules}); nothing was written`));
    }
    await this.deps.unitOfWork.run(async (manager) => {
      const drafts = this.draftsOf(generation, built, outcome);
      const zone = built.zone;
      if (request.mode === GenerationMode.REPLACE_DRAFTS) {
        await deleteDraftsStartingWithin(manager, generation.organizationId, generation.locationId, {
          from: startOfLocalDay(request.startDate, zone),
          to: startOfLocalDay(addDays(request.endDate, 1), zone),
        });
      }
      const ids = await insertGeneratedDrafts(manager, generation.organizationId, generation.locationId, drafts);
      await this.finish(generation, GenerationStatus.SUCCEEDED, explain(built, outcome, ids), null, manager);
    });
  }

  /** Everything the problem is made of, read now: templates, coverage, people, their planned shifts, availability and the labor rules. */
  private async build(generation: ScheduleGeneration): Promise<BuiltProblem & { zone: string; templates: TemplateShape[] }> {
    const manager = this.deps.db.manager;
    const { organizationId: org, locationId, request } = generation;
    const location = await findOneByOrFail(manager, Location, { organizationId: org, id: locationId });
    const zone = location.timezone;
    const bounds = { from: startOfLocalDay(addDays(request.startDate, -1), zone), to: startOfLocalDay(addDays(request.endDate, 2), zone) };
    const templates = await this.templatesWithBreaks(manager, org, locationId);
    const people = await plannablePeople(manager, org, locationId, request.staffIds);
    const staffIds = people.map((p) => p.staffId);
    const { rules, weekStart } = await rulesOf(manager, org, locationId);
    const figures = rules.figures;
    const windows = await availabilityWindows(manager, { organizationId: org, staffIds, from: bounds.from, until: bounds.to, timeZone: zone });
    const built = buildProblem({
      request,
      locationId,
      zone,
      now: this.deps.clock.now(),
      templates,
      requirements: await selectRequirements(manager, org, locationId, request.startDate, request.endDate),
      people,
      planned: await plannedShiftsAround(manager, org, {
        staffIds,
        bounds,
        replacedLocationId: request.mode === GenerationMode.REPLACE_DRAFTS ? locationId : null,
      }),
      windows,
      rules: {
        minRestHours: figures.minRestHours,
        restPriced: figures.restPayRate !== null || figures.restPremiumAmount !== null,
        maxShiftHours: figures.maxShiftHours,
        maxDailyHours: figures.maxDailyHours,
        maxWeeklyHours: figures.maxWeeklyHours,
        noticeDays: figures.noticeDays,
        weekStart,
        profile: rules,
      },
      bears: (window, start, end, templateId) => matchesShift(window as AvailabilityWindow, start, end, templateId),
    });
    return { ...built, zone, templates };
  }

  /**
   * Runs the search in a child process at the lowest priority (requests go first), renewing the
   * lease (with the progress) a few times per lease period: a cancel asked for meanwhile ends the
   * search; a lost lease (another process took the generation up) ends it without a word.
   */
  private search(generation: ScheduleGeneration, built: BuiltProblem, timeLimitMs: number): Promise<RosterSolution | "CANCELLED" | "LOST"> {
    const child = fork(path.join(__dirname, "solver", "roster-process.js"), { serialization: "advanced", stdio: "inherit" });
    child.send({ problem: built.problem, timeLimitMs, seed: generation.request.seed });
    let latest: GenerationProgress | null = null;
    let verdict: "CANCELLED" | "LOST" | null = null;
    let solution: RosterSolution | null = null;
    const renew = async () => {
      const lease = await this.deps.unitOfWork
        .run((manager) => renewLease(manager, generation.id, this.processId, this.leaseSeconds, latest))
        .catch(() => undefined);
      if (lease === null) verdict = "LOST";
      else if (lease?.cancelRequested) verdict = "CANCELLED";
      if (verdict) child.kill();
    };
    const timer = setInterval(() => void renew(), Math.min(2000, (this.leaseSeconds * 1000) / 3));
    return new Promise((resolve, reject) => {
      child.on("message", (message: { progress?: SearchProgress; solution?: RosterSolution }) => {
        if (message.progress) {
          const p = message.progress;
          latest = { elapsedSeconds: Math.round(p.elapsedMs / 100) / 10, bestObjective: p.bestHard > 0 ? null : p.bestObjective, moves: p.moves };
        }
        if (message.solution) solution = message.solution;
      });
      child.on("error", reject);
      child.on("exit", (code, signal) => {
        clearInterval(timer);
        if (verdict) resolve(verdict);
        else if (solution) resolve(solution);
        else reject(new Error(`The search stopped with ${signal ?? `code ${code}`}`));
      });
    });
  }

  /** The location's templates, each break with its type as a draft made from the template carries it. */
  private async templatesWithBreaks(manager: EntityManager, org: string, locationId: string): Promise<TemplateShape[]> {
    const templates = await locationTemplates(manager, org, locationId);
    const typeIds = [...new Set(templates.flatMap((t) => t.breaks.map((b) => b.typeId)))];
    const types = new Map((await breakTypesOf(manager, org, locationId, typeIds, "breaks")).map((b) => [b.typeId, b]));
    return templates.map((t) => ({
      id: t.id,
      roleId: t.roleId,
      startTime: t.startTime,
      endTime: t.endTime,
      durationMinutes: t.durationMinutes,
      cannotBeFollowedBy: t.cannotBeFollowedBy,
      breaks: t.breaks.map((b) => ({ ...types.get(b.typeId)!, startTime: b.startTime ?? null })),
    }));
  }

  /** The drafts of the new shifts of a solution, each with its template's role, times, breaks and the generation's id. */
  private draftsOf(
    generation: ScheduleGeneration,
    built: BuiltProblem & { zone: string; templates: TemplateShape[] },
    solution: RosterSolution,
  ): GeneratedDraft[] {
    const drafts: GeneratedDraft[] = [];
    solution.roster.forEach((row, i) => {
      const fixed = new Set(built.problem.staff[i].fixed.map((f) => f.day));
      row.forEach((t, d) => {
        if (t < 0 || fixed.has(d)) return;
        const template = built.templates[t];
        const { startsAt, endsAt } = built.instances[d][t];
        drafts.push({
          staffId: built.problem.staff[i].key,
          roleId: template.roleId,
          templateId: template.id,
          startsAt,
          endsAt,
          note: null,
          generationId: generation.id,
          breaks: breaksOn(template, built.dates[d], built.zone),
        });
      });
    });
    return drafts;
  }

  /** Ends the generation (if this process still holds it) and records its completion event. */
  private async finish(
    generation: ScheduleGeneration,
    status: GenerationStatus,
    result: GenerationResult | null,
    error: string | null,
    manager?: EntityManager,
  ): Promise<void> {
    const write = async (m: EntityManager) => {
      const held = await finishGeneration(m, generation.id, this.processId, { status, result, error, now: this.deps.clock.now() });
      if (!held) throw conflict("Another process took the generation up meanwhile");
      await recordCompletion(m, generation, status, result, error);
    };
    await (manager ? write(manager) : this.deps.unitOfWork.run(write));
  }
}

/** The one event of a generation's end, however it ended. */
function recordCompletion(
  manager: EntityManager,
  generation: ScheduleGeneration,
  status: GenerationStatus,
  result: GenerationResult | null,
  error: string | null,
): Promise<void> {
  return recordEvent(manager, generation.organizationId, "schedule.generation.completed", {
    generationId: generation.id,
    locationId: generation.locationId,
    status,
    startDate: generation.request.startDate,
    endDate: generation.request.endDate,
    objective: result?.objective ?? null,
    draftIds: result?.draftIds ?? [],
    error,
  });
}

/**
 * The staff members a generation plans, with the wage of each of their roles: their own for the
 * role, else the role's, else their own default (as labor cost and premiums are priced everywhere).
 */
async function plannablePeople(manager: EntityManager, org: string, locationId: string, staffIds: string[] | null): Promise<PlannablePerson[]> {
  const members = await plannableStaff(manager, org, locationId, staffIds);
  const wagesOfRoles = await roleWages(manager, org, [...new Set(members.flatMap((m) => m.roles.map((r) => r.roleId)))]);
  return members.map((m) => ({
    staffId: m.staffId,
    active: m.active,
    atLocation: m.atLocation,
    wages: new Map(m.roles.map((r) => [r.roleId, r.hourlyWage ?? wagesOfRoles.get(r.roleId) ?? m.hourlyWage])),
  }));
}

/** Limits as stored, their templates checked against the location's. */
function storedLimits(input: PlanningLimitsInput | null | undefined, templateIds: Set<string>, field: string): StoredLimits {
  if (!input) return {};
  const limits: StoredLimits = {};
  for (const key of ["minMinutes", "maxMinutes", "maxConsecutiveShifts", "minConsecutiveShifts", "minConsecutiveDaysOff", "maxWeekends"] as const) {
    const value = input[key];
    if (value !== undefined && value !== null) limits[key] = value;
  }
  if (limits.minMinutes !== undefined && limits.maxMinutes !== undefined && limits.minMinutes > limits.maxMinutes)
    throw invalidField(`${field}.minMinutes`, "minMinutes must not exceed maxMinutes");
  if (input.maxShifts) {
    limits.maxShifts = input.maxShifts.map((m, i) => {
      const id = String(m.templateId).toLowerCase();
      if (!templateIds.has(id))
        throw (isUuid(id) ? unknownReference : invalidField)(`${field}.maxShifts.${i}.templateId`, `${m.templateId} is not a shift template of this location`);
      return { templateId: id, max: m.max };
    });
  }
  return limits;
}
