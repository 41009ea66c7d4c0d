import { EntityManager } from "typeorm";
import { Actor, can } from "../../auth/actor";
import { requireUuid } from "../../common/ids";
import { ServiceDeps } from "../../common/services";
import { rejectNulls } from "../../common/validation";
import { AppError, conflict, forbidden, invalidField, notFound, unknownReference } from "../../errors/app-error";
import { describeConstraint } from "../../errors/database-errors";
import { evaluateShiftsEligibility, notEligible, StaffEligibility } from "../../modules/availability";
import { ComplianceRules, LocationRules, rulesOfLocations } from "../../modules/compliance";
import { postPublishedOpenShift } from "../../modules/open-shifts";
import { reassignEntries, removeEntries, ScheduleEntry } from "../../modules/schedules";
import { LIVE_STATUSES, ShiftRequest, ShiftRequestStatus, ShiftRequestType } from "./shift-request.entity";
import {
  ApproveShiftRequestInput,
  CreateShiftRequestInput,
  ShiftRequestListArgs,
  ShiftRequestPreview,
  ShiftRequestSettings,
  UpdateShiftRequestSettingsInput,
} from "./shift-request.graphql";
import { EntryRow, expireStaleRequests, moveRequestStatus, selectEntries, selectRequiresApproval, upsertRequiresApproval } from "./shift-request.store";
import { findOneBy, findOneByOrFail } from "../../common/entity-reads";

describeConstraint("uq_shift_requests_live_entry", "The entry already has a request waiting; cancel it first");

const LABEL = "Shift request";
/** Reasons an acknowledgement cannot override: they are facts, not labor rules. */
const HARD_CODES = new Set(["INACTIVE", "ROLE", "LOCATION", "UNAVAILABLE", "TIME_OFF", "OVERLAP"]);
const { OPEN, PENDING_RECIPIENT, PENDING_APPROVAL, APPROVED, DECLINED, REJECTED, CANCELLED } = ShiftRequestStatus;

/** Who takes which entry when the request goes through. */
interface Move {
  staffId: string;
  entry: EntryRow;
}

/** A move and its taker's eligibility. */
interface Check {
  move: Move;
  result: StaffEligibility;
}

/** Requests evaluated together: each one's checks, and the rules in force where they and their entries are. */
interface Evaluation {
  checks: Check[][];
  rulesAt: ReadonlyMap<string, LocationRules>;
}

/** Why a request owes no predictability pay, citing the law's exemption: a swap or cover is a trade the workers arranged; a drop, a change the worker asked for. */
function exemption(type: ShiftRequestType, rules: ComplianceRules): string {
  return type === ShiftRequestType.DROP
    ? `The worker asked to give this entry up: no predictability pay is owed (${rules.workerChangeExemption("request")}, changes an employee asks for)`
    : `The workers arranged this ${type.toLowerCase()} between them: no predictability pay is owed (${rules.workerChangeExemption("trade")}, shift swaps and coverage employees agree on)`;
}

/**
 * Swaps, covers and drops of published entries, across schedules, availability, compliance and
 * open shifts: a worker asks, the recipient accepts, a manager approves (unless the location lets
 * acceptance complete it). Every transition is one guarded update; approval re-checks everything
 * and moves the entries in the same transaction.
 */
export class ShiftRequestService {
  /**
   * The evaluation a change made of the request it answers with (and the rules at its location):
   * its answer's preview is that evaluation, made in the change's own transaction, not a second one after it.
   */
  private readonly evaluatedBy = new WeakMap<ShiftRequest, { checks: Check[]; rules: LocationRules }>();
  /** The entries a request's creation read, which its answer's preview (evaluated only if asked for) need not read again. */
  private readonly entriesReadBy = new WeakMap<ShiftRequest, EntryRow[]>();

  constructor(private readonly deps: ServiceDeps) {}

  /** A manager's list is everything; a worker's, their own requests and the open covers they may take. */
  async list(actor: Actor, args: ShiftRequestListArgs): Promise<ShiftRequest[]> {
    await this.expire(actor.organizationId);
    const q = this.deps.db
      .getRepository(ShiftRequest)
      .createQueryBuilder("r")
      .where("r.organization_id = :org", { org: actor.organizationId })
      .orderBy("r.created_at", "DESC")
      .addOrderBy("r.id", "DESC")
      .take(500);
    if (args.status) q.andWhere("r.status = :status", { status: args.status });
    if (args.type) q.andWhere("r.type = :type", { type: args.type });
    if (!can(actor, "shiftrequests:manage")) q.andWhere("(r.requester_id = :me OR r.recipient_id = :me OR r.status = 'OPEN')", { me: actor.staffId });
    return this.visible(actor, await q.getMany());
  }

  async get(actor: Actor, id: string): Promise<ShiftRequest> {
    await this.expire(actor.organizationId);
    const [request] = await this.visible(actor, [await this.find(this.deps.db.manager, actor, id)]);
    if (!request) throw notFound(LABEL);
    return request;
  }

  async create(actor: Actor, input: CreateShiftRequestInput): Promise<ShiftRequest> {
    const org = actor.organizationId;
    const entryId = requireUuid(input.entryId, "Schedule entry");
    const recipientEntryId = input.recipientEntryId ? requireUuid(input.recipientEntryId, "Schedule entry") : null;
    let recipientId = input.recipientStaffId ? requireUuid(input.recipientStaffId, "Staff member") : null;
    if (input.type === ShiftRequestType.SWAP && !recipientEntryId)
      throw invalidField("recipientEntryId", "A swap names the other worker's entry in recipientEntryId");
    if (input.type !== ShiftRequestType.SWAP && recipientEntryId) throw invalidField("recipientEntryId", "Only a swap names another entry");
    if (input.type === ShiftRequestType.DROP && recipientId) throw invalidField("recipientStaffId", "A drop has no recipient");
    return this.change(org, async (manager) => {
      const now = this.deps.clock.now();
      const read = await selectEntries(manager, org, recipientEntryId ? [entryId, recipientEntryId] : [entryId], false);
      const entry = read.find((e) => e.id === entryId);
      if (!entry) throw unknownReference("entryId", `No published entry has id "${input.entryId}"`);
      if (!can(actor, "shiftrequests:manage") && entry.staffId !== actor.staffId) throw forbidden("A worker asks for their own entries only");
      if (entry.start <= now) throw conflict("The entry has started; it can no longer be offered");
      // A recipient who is not the organization's is unknown (404), before they can differ from the other entry's worker.
      if (recipientId) {
        const known: unknown[] = await manager.query("SELECT 1 FROM staff_members WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL", [
          org,
          recipientId,
        ]);
        if (!known.length) throw unknownReference("recipientStaffId", `No staff member has id "${input.recipientStaffId}"`);
      }
      let recipientEntry: EntryRow | null = null;
      if (recipientEntryId) {
        recipientEntry = read.find((e) => e.id === recipientEntryId) ?? null;
        if (!recipientEntry) throw unknownReference("recipientEntryId", `No published entry has id "${input.recipientEntryId}"`);
        if (recipientId && recipientId !== recipientEntry.staffId)
          throw invalidField("recipientStaffId", "recipientStaffId must be the worker of recipientEntryId");
        if (recipientEntry.start <= now) throw conflict("The other entry has started; it can no longer be swapped");
        recipientId = recipientEntry.staffId;
      }
      if (recipientId === entry.staffId) throw invalidField(recipientEntryId ? "recipientEntryId" : "recipientStaffId", "The recipient is the requester");
      const status = input.type === ShiftRequestType.DROP ? PENDING_APPROVAL : recipientId ? PENDING_RECIPIENT : OPEN;
      const repo = manager.getRepository(ShiftRequest);
      const saved = await repo.save(
        repo.create({
          organizationId: org,
          locationId: entry.locationId,
          type: input.type,
          status,
          requesterStaffId: entry.staffId,
          entryId: entry.id,
          entryStart: entry.start,
          entryEnd: entry.end,
          recipientStaffId: recipientId,
          recipientEntryId: recipientEntry?.id ?? null,
          recipientEntryStart: recipientEntry?.start ?? null,
          recipientEntryEnd: recipientEntry?.end ?? null,
          note: input.note ?? null,
          openShiftId: null,
          decidedBy: null,
          decidedAt: null,
          acknowledgedReason: null,
          acknowledgedViolations: null,
          createdBy: actor.staffId,
        }),
      );
      // A drop asks nobody: where the location needs no approval it goes through at once.
      if (status === PENDING_APPROVAL && !(await selectRequiresApproval(manager, org, entry.locationId)))
        return this.answer(manager, actor, saved.id, await this.complete(manager, actor, saved, {}, [PENDING_APPROVAL]));
      const created = await this.find(manager, actor, saved.id);
      this.entriesReadBy.set(created, read);
      return created;
    });
  }

  /**
   * The recipient takes the request (anyone eligible an open cover: the first one wins). Refused
   * when a fact keeps the taker from the entry (role, availability, time off, an overlap).
   * Completes it where the location needs no approval.
   */
  async accept(actor: Actor, id: string): Promise<ShiftRequest> {
    const org = actor.organizationId;
    return this.change(org, async (manager) => {
      const request = await this.find(manager, actor, id);
      const taker = request.recipientStaffId ?? actor.staffId;
      if (request.status === OPEN ? !actor.staffId : taker !== actor.staffId && !can(actor, "shiftrequests:manage"))
        throw forbidden("Only the recipient accepts this request");
      if (request.status === OPEN && actor.staffId === request.requesterStaffId) throw conflict("The requester cannot take their own entry");
      if (request.status !== OPEN && request.status !== PENDING_RECIPIENT) throw this.notFrom(request, "accepted");
      // Facts refuse the taker now; labor-rule errors wait for the manager, who may acknowledge them.
      const evaluation = await this.evaluate(manager, org, [{ request, recipients: taker ? [taker] : [] }]);
      const check = evaluation.checks[0][0];
      const hard = check?.result.reasons.filter((r) => HARD_CODES.has(r.code)) ?? [];
      if (hard.length) throw notEligible({ ...check.result, reasons: hard });
      const next = (await selectRequiresApproval(manager, org, request.locationId)) ? PENDING_APPROVAL : APPROVED;
      if (
        !(await moveRequestStatus(manager, org, request.id, [request.status], PENDING_APPROVAL, { recipientId: taker ?? undefined }, this.deps.clock.now()))
      ) {
        throw conflict("The request was taken or changed meanwhile");
      }
      if (next === APPROVED)
        return this.answer(
          manager,
          actor,
          request.id,
          await this.complete(manager, actor, await this.find(manager, actor, request.id), {}, [PENDING_APPROVAL]),
        );
      return this.answer(manager, actor, request.id, evaluation);
    });
  }

  async decline(actor: Actor, id: string): Promise<ShiftRequest> {
    return this.transition(actor, id, [PENDING_RECIPIENT], DECLINED, (request) => {
      if (request.recipientStaffId !== actor.staffId && !can(actor, "shiftrequests:manage")) throw forbidden("Only the recipient declines this request");
    });
  }

  async reject(actor: Actor, id: string): Promise<ShiftRequest> {
    return this.transition(actor, id, LIVE_STATUSES, REJECTED);
  }

  async cancel(actor: Actor, id: string): Promise<ShiftRequest> {
    return this.transition(actor, id, LIVE_STATUSES, CANCELLED, (request) => {
      if (request.requesterStaffId !== actor.staffId && !can(actor, "shiftrequests:manage"))
        throw forbidden("Only the requester or a manager cancels a request");
    });
  }

  /** Re-checks everything now and moves the entries, in one transaction; compliance errors need `acknowledge` and a reason. */
  async approve(actor: Actor, id: string, input: ApproveShiftRequestInput): Promise<ShiftRequest> {
    if (input.acknowledge && !input.reason?.trim()) throw invalidField("reason", "Acknowledging violations needs a reason");
    return this.change(actor.organizationId, async (manager) => {
      const request = await this.find(manager, actor, id);
      if (request.status !== PENDING_APPROVAL) throw this.notFrom(request, "approved");
      return this.answer(manager, actor, request.id, await this.complete(manager, actor, request, input, [PENDING_APPROVAL]));
    });
  }

  /**
   * What approving each request would mean now: each person's eligibility for the entry they would
   * take, and why no predictability pay is owed. One evaluation for the whole page, whatever its
   * number of requests; none for a request a change has just evaluated.
   */
  async previews(actor: Actor, requests: readonly ShiftRequest[]): Promise<ShiftRequestPreview[]> {
    const live = (r: ShiftRequest) => LIVE_STATUSES.includes(r.status) || r.status === APPROVED;
    const fresh = requests.filter((r) => !this.evaluatedBy.has(r));
    const evaluated = fresh.filter(live);
    const read = evaluated.map((r) => this.entriesReadBy.get(r));
    const { checks, rulesAt } = await this.evaluate(
      this.deps.db.manager,
      actor.organizationId,
      evaluated.map((request) => ({ request, recipients: request.recipientStaffId ? [request.recipientStaffId] : [] })),
      { locationIds: fresh.map((r) => r.locationId), entries: read.every(Boolean) && read.length ? (read.flat() as EntryRow[]) : undefined },
    );
    const checksOf = new Map(evaluated.map((request, i) => [request, checks[i]]));
    const now = this.deps.clock.now().getTime();
    return requests.map((request) => {
      const done = this.evaluatedBy.get(request);
      const { rules } = done?.rules ?? rulesAt.get(request.locationId)!;
      const noticeMs = (rules.figures.noticeDays ?? 0) * 86_400_000;
      const inWindow = rules.figures.noticeDays !== null && request.entryStart.getTime() - now < noticeMs;
      return {
        people: (done?.checks ?? checksOf.get(request) ?? []).map(({ move, result }) => ({ ...result, entryId: move.entry.id })),
        predictabilityPayExemption: inWindow ? exemption(request.type, rules) : null,
      };
    });
  }

  async settings(actor: Actor, locationId: string): Promise<ShiftRequestSettings> {
    const id = await this.location(actor, locationId);
    return { locationId: id, shiftRequestsRequireApproval: await selectRequiresApproval(this.deps.db.manager, actor.organizationId, id) };
  }

  async updateSettings(actor: Actor, locationId: string, input: UpdateShiftRequestSettingsInput): Promise<ShiftRequestSettings> {
    rejectNulls(input);
    const id = await this.location(actor, locationId);
    const requireApproval = input.shiftRequestsRequireApproval;
    if (requireApproval !== undefined) await this.deps.unitOfWork.run((manager) => upsertRequiresApproval(manager, actor.organizationId, id, requireApproval));
    return this.settings(actor, locationId);
  }

  /** Requests of every organization whose entries started or changed: for the background job. */
  expireAll(): Promise<number> {
    return this.deps.unitOfWork.run((manager) => expireStaleRequests(manager, null, this.deps.clock.now()));
  }

  private expire(organizationId: string): Promise<number> {
    return this.deps.unitOfWork.run((manager) => expireStaleRequests(manager, organizationId, this.deps.clock.now()));
  }

  /** A change in one unit of work that first marks the organization's stale requests EXPIRED, as a read would find them. */
  private change<T>(organizationId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.deps.unitOfWork.run(async (manager) => {
      await expireStaleRequests(manager, organizationId, this.deps.clock.now());
      return work(manager);
    });
  }

  /**
   * Approval's work: the entries locked and found as asked, every person re-checked (facts refuse,
   * compliance errors refuse unless acknowledged), then the entries moved (or the dropped one made
   * an open shift) and the request APPROVED.
   */
  private async complete(
    manager: EntityManager,
    actor: Actor,
    request: ShiftRequest,
    ack: ApproveShiftRequestInput,
    from: ShiftRequestStatus[],
  ): Promise<Evaluation> {
    const org = actor.organizationId;
    const now = this.deps.clock.now();
    const ids = [request.entryId, ...(request.recipientEntryId ? [request.recipientEntryId] : [])];
    const entries = await selectEntries(manager, org, ids, true);
    const same = (entryId: string, staffId: string | null, start: Date | null, end: Date | null) => {
      const e = entries.find((x) => x.id === entryId);
      return e && e.staffId === staffId && e.start.getTime() === start?.getTime() && e.end.getTime() === end?.getTime() && e.start > now;
    };
    const unchanged =
      same(request.entryId, request.requesterStaffId, request.entryStart, request.entryEnd) &&
      (!request.recipientEntryId || same(request.recipientEntryId, request.recipientStaffId, request.recipientEntryStart, request.recipientEntryEnd));
    if (!unchanged) throw conflict("The entry changed, went away or started since the request was made: the request has expired", "REQUEST_EXPIRED");
    const evaluation = await this.evaluate(manager, org, [{ request, recipients: request.recipientStaffId ? [request.recipientStaffId] : [] }], { entries });
    const checks = evaluation.checks[0];
    for (const { result } of checks) {
      const hard = result.reasons.filter((r) => HARD_CODES.has(r.code));
      if (hard.length) throw notEligible({ ...result, reasons: hard });
    }
    const errors = checks.flatMap(({ result }) => result.reasons.map((r) => ({ staffId: result.staffId, ...r })));
    if (errors.length && !ack.acknowledge) {
      throw new AppError(
        "COMPLIANCE_VIOLATION",
        `The change breaks ${errors.length} labor rule${errors.length === 1 ? "" : "s"}; approve with acknowledge and a reason to go ahead`,
        errors.map((v, i) => ({
          field: `violations.${i}`,
          ...{ message: v.message, ruleId: v.code, severity: "error", workerId: v.staffId, entryIds: v.entryIds, citation: v.citation ?? "" },
        })),
      );
    }
    let openShiftId: string | undefined;
    if (request.type === ShiftRequestType.DROP) {
      const entry = entries[0];
      const dropped = await findOneByOrFail(manager, ScheduleEntry, { organizationId: org, id: entry.id });
      await removeEntries(manager, org, [dropped], now);
      const shift = await postPublishedOpenShift(
        manager,
        org,
        {
          locationId: entry.locationId,
          roleId: entry.roleId,
          startsAt: entry.start,
          endsAt: entry.end,
          breakTypeIds: [...new Set(entry.breakTypeIds)],
          note: entry.note,
        },
        now,
      );
      openShiftId = shift.id;
    } else {
      await reassignEntries(
        manager,
        org,
        checks.map(({ move }) => ({ entryId: move.entry.id, staffId: move.staffId })),
        now,
      );
    }
    const acknowledged = errors.length ? { acknowledgedReason: ack.reason!.trim(), acknowledgedViolations: errors } : {};
    if (!(await moveRequestStatus(manager, org, request.id, from, APPROVED, { decidedBy: actor.staffId, decidedAt: now, openShiftId, ...acknowledged }, now))) {
      throw conflict("The request changed meanwhile");
    }
    return evaluation;
  }

  /** The request as the change left it, with the evaluation the change made of it (the only request evaluated) for its preview. */
  private async answer(manager: EntityManager, actor: Actor, id: string, evaluation: Evaluation): Promise<ShiftRequest> {
    const request = await this.find(manager, actor, id);
    this.evaluatedBy.set(request, { checks: evaluation.checks[0], rules: evaluation.rulesAt.get(request.locationId)! });
    return request;
  }

  /**
   * For each request, each person it moves an entry to, with their eligibility for it (the
   * request's entries set aside, no predictability pay: the worker asked), and the rules in force
   * at the requests' locations, their entries' and `also.locationIds`. One read of the entries, one
   * of the rules and one eligibility evaluation for all the requests; `also.entries`, when the
   * caller has just read the requests' entries, spares the first.
   */
  private async evaluate(
    manager: EntityManager,
    organizationId: string,
    asked: readonly { request: ShiftRequest; recipients: string[] }[],
    also: { entries?: EntryRow[]; locationIds?: string[] } = {},
  ): Promise<Evaluation> {
    const idsOf = (r: ShiftRequest) => [r.entryId, ...(r.recipientEntryId ? [r.recipientEntryId] : [])];
    const entries =
      also.entries ?? (asked.length ? await selectEntries(manager, organizationId, [...new Set(asked.flatMap(({ request }) => idsOf(request)))], false) : []);
    const locationIds = [...(also.locationIds ?? []), ...asked.map(({ request }) => request.locationId), ...entries.map((e) => e.locationId)];
    if (locationIds.length === 0) return { checks: [], rulesAt: new Map() };
    const rulesAt = await rulesOfLocations(manager, organizationId, locationIds);
    const byId = new Map(entries.map((e) => [e.id, e]));
    const movesOf = asked.map(({ request, recipients }) => {
      const moves: Move[] = [];
      const entry = byId.get(request.entryId);
      if (entry && request.type !== ShiftRequestType.DROP) for (const staffId of recipients) moves.push({ staffId, entry });
      const theirs = request.recipientEntryId ? byId.get(request.recipientEntryId) : undefined;
      if (theirs && request.type === ShiftRequestType.SWAP) moves.push({ staffId: request.requesterStaffId, entry: theirs });
      return moves;
    });
    const now = this.deps.clock.now();
    const results = await evaluateShiftsEligibility(
      manager,
      asked.flatMap(({ request }, i) =>
        movesOf[i].map(({ staffId, entry }) => ({
          organizationId: request.organizationId,
          locationId: entry.locationId,
          timeZone: entry.timeZone,
          roleId: entry.roleId,
          start: entry.start,
          end: entry.end,
          staffIds: [staffId],
          unpaidBreakMinutes: entry.unpaidBreakMinutes,
          ignoredEntryIds: new Set(idsOf(request)),
          owesPredictabilityPay: false,
          now,
        })),
      ),
      rulesAt,
    );
    let next = 0;
    const checks = movesOf.map((moves) =>
      moves.flatMap((move) => {
        const [result] = results[next++];
        return result ? [{ move, result }] : [];
      }),
    );
    return { checks, rulesAt };
  }

  private async transition(
    actor: Actor,
    id: string,
    from: ShiftRequestStatus[],
    to: ShiftRequestStatus,
    allowed?: (request: ShiftRequest) => void,
  ): Promise<ShiftRequest> {
    return this.change(actor.organizationId, async (manager) => {
      const request = await this.find(manager, actor, id);
      allowed?.(request);
      if (!from.includes(request.status)) throw this.notFrom(request, to.toLowerCase());
      if (
        !(await moveRequestStatus(
          manager,
          actor.organizationId,
          request.id,
          from,
          to,
          { decidedBy: actor.staffId, decidedAt: this.deps.clock.now() },
          this.deps.clock.now(),
        ))
      ) {
        throw conflict("The request changed meanwhile");
      }
      return this.find(manager, actor, request.id);
    });
  }

  private notFrom(request: ShiftRequest, verb: string): AppError {
    return conflict(`The request is ${request.status}; it cannot be ${verb}`, request.status === ShiftRequestStatus.EXPIRED ? "REQUEST_EXPIRED" : "CONFLICT");
  }

  /** A request of the organization that the actor may see; a worker's view of another's is a 404. */
  private async find(manager: EntityManager, actor: Actor, id: string): Promise<ShiftRequest> {
    const request = await findOneBy(manager, ShiftRequest, { organizationId: actor.organizationId, id: requireUuid(id, LABEL) });
    if (!request) throw notFound(LABEL);
    if (
      !can(actor, "shiftrequests:manage") &&
      request.requesterStaffId !== actor.staffId &&
      request.recipientStaffId !== actor.staffId &&
      request.status !== OPEN
    )
      throw notFound(LABEL);
    return request;
  }

  /** The requests the actor sees: a manager all, a worker their own and the open covers they may take (one evaluation for all of these). */
  private async visible(actor: Actor, requests: ShiftRequest[]): Promise<ShiftRequest[]> {
    const me = actor.staffId;
    const own = (r: ShiftRequest) => can(actor, "shiftrequests:manage") || r.requesterStaffId === me || r.recipientStaffId === me;
    const open = me ? requests.filter((r) => !own(r) && r.status === OPEN) : [];
    const { checks } = await this.evaluate(
      this.deps.db.manager,
      actor.organizationId,
      open.map((request) => ({ request, recipients: [me!] })),
    );
    const eligible = new Set(open.filter((_, i) => checks[i][0]?.result.eligible).map((r) => r.id));
    return requests.filter((r) => own(r) || eligible.has(r.id));
  }

  private async location(actor: Actor, locationId: string): Promise<string> {
    const id = requireUuid(locationId, "Location");
    const rows: unknown[] = await this.deps.db.query("SELECT 1 FROM locations WHERE organization_id = $1 AND id = $2", [actor.organizationId, id]);
    if (!rows.length) throw notFound("Location");
    return id;
  }
}
