import { EntityManager } from "typeorm";
import type { Queryable } from "../../../database/queryable";
import { ServiceDeps } from "../../../common/services";
import { Actor, can, ownRecordsOnly, requireSelfOr } from "../../../auth/actor";
import { isUuid, requireUuid } from "../../../common/ids";
import { Page } from "../../../common/pagination";
import { TenantRecords } from "../../../common/tenant-records";
import { addDays, daysBetween, localDate, MAX_RANGE_DAYS, parseTimestamp, requireTimeZone, startOfLocalDay, utcOffsetMinutes } from "../../../common/time";
import { rejectNulls } from "../../../common/validation";
import { conflict, invalidField, notFound, unknownReference } from "../../../errors/app-error";
import { describeConstraint } from "../../../errors/database-errors";
import { Location } from "../../locations";
import { Organization } from "../../organizations";
import { resolveStaffMember } from "../policies/employee-ref";
import { TimeOffPolicy } from "../policies/policy.entity";
import { checkHourConfiguration, defaultHourConfiguration, totalOf } from "./request-hours";
import { ApprovedTimeOffArgs, CreateTimeOffRequestInput, TimeOffRequestFilterArgs, UpdateTimeOffRequestInput } from "./request.graphql";
import { RequestStatus, TimeOffRequest } from "./request.entity";
import { TimeOffSettingsService } from "../settings/settings.service";
import { moveRequestStatus, selectApprovedTimeOff } from "./request.store";
import { availableOf, Balance, WorkerPolicyService } from "../balances/worker-policy.service";
import { WorkerPolicy } from "../balances/worker-policy.entity";
import { findOneBy, findOneByOrFail } from "../../../common/entity-reads";

describeConstraint("ex_time_off_requests_no_overlap", "The worker already has a pending or approved time-off request that overlaps this one");

/** Hours compared to a millionth, as stored. */
const EPSILON = 1e-6;

const insufficient = (needed: number, available: number) =>
  conflict(`The request needs ${needed} h but only ${Math.round(available * 100) / 100} h are available`, "INSUFFICIENT_BALANCE");

/** Approved time off of some staff members overlapping [from, until), by start: what makes them unavailable. */
export function approvedTimeOff(
  db: Queryable,
  organizationId: string,
  staffIds: readonly string[] | null,
  from: Date,
  until: Date,
): Promise<{ id: string; staffId: string; start: Date; end: Date }[]> {
  return selectApprovedTimeOff(db, organizationId, staffIds, from, until);
}

/** The request's times and hours, worked out from the body and what the request had before. */
interface RequestedTime {
  zone: string;
  locationId: string | null;
  start: Date;
  end: Date;
  isAllDay: boolean;
  days: { date: string; hours: number }[];
  total: number;
}

export class TimeOffRequestService {
  readonly records: TenantRecords<TimeOffRequest>;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly workerPolicies: WorkerPolicyService,
    private readonly settings: TimeOffSettingsService,
  ) {
    this.records = new TenantRecords(deps, TimeOffRequest, "Time-off request");
  }

  /** A request the actor may see: a worker without `timeoff:read` sees only their own. */
  async get(actor: Actor, id: string, manager?: EntityManager): Promise<TimeOffRequest> {
    const own = ownRecordsOnly(actor, "timeoff:read", "timeoff:self");
    const request = await this.records.get(actor, id, { manager });
    if (own && request.staffId !== own) throw notFound(this.records.label);
    return request;
  }

  list(actor: Actor, args: TimeOffRequestFilterArgs): Promise<Page<TimeOffRequest>> {
    const own = ownRecordsOnly(actor, "timeoff:read", "timeoff:self");
    return this.records.list(actor, args, { property: "startTime", column: "start_time" }, (q) => {
      if (args.status) q.andWhere("r.status = :status", { status: args.status });
      if (args.workerId) q.andWhere("r.worker_id = :staffId", { staffId: requireUuid(args.workerId, "Staff member") });
      if (args.policyId) q.andWhere("r.policy_id = :policyId", { policyId: requireUuid(args.policyId, "Policy") });
      if (own) q.andWhere("r.worker_id = :own", { own });
    });
  }

  /** Approved time off overlapping [startTime, endTime) (either end open), by start. */
  async approved(actor: Actor, args: ApprovedTimeOffArgs): Promise<Page<TimeOffRequest>> {
    const own = ownRecordsOnly(actor, "timeoff:read", "timeoff:self");
    const zone = (await this.organization(this.deps.db.manager, actor.organizationId)).timezone;
    const from = args.startTime ? readBound(args.startTime, zone, "startTime", false) : undefined;
    const until = args.endTime ? readBound(args.endTime, zone, "endTime", true) : undefined;
    if (from && until) {
      if (until <= from) throw invalidField("endTime", "endTime must be after startTime");
      if (daysBetween(localDate(from, zone), localDate(until, zone)) > MAX_RANGE_DAYS)
        throw invalidField("endTime", `A range may span at most ${MAX_RANGE_DAYS} days`);
    }
    return this.records.list(actor, args, { property: "startTime", column: "start_time" }, (q) => {
      q.andWhere("r.status = 'approved'");
      if (args.workerId) q.andWhere("r.worker_id = :staffId", { staffId: requireUuid(args.workerId, "Staff member") });
      if (own) q.andWhere("r.worker_id = :own", { own });
      if (from) q.andWhere("r.end_time > :from", { from });
      if (until) q.andWhere("r.start_time < :until", { until });
    });
  }

  /**
   * Files a request: pending, or approved at once where the policy needs no approval. The worker
   * policy stays locked from the balance check to the insert, so concurrent requests cannot
   * together claim more than the available balance.
   */
  async create(actor: Actor, input: CreateTimeOffRequestInput): Promise<TimeOffRequest> {
    return this.deps.unitOfWork.run(async (manager) => {
      const org = actor.organizationId;
      const staffId = (await resolveStaffMember(manager, org, input, "")) ?? actor.staffId;
      if (!staffId) throw invalidField("workerId", "Name the worker with workerId or employee.externalEmployeeId");
      requireSelfOr(actor, "timeoff:approve", "timeoff:self", staffId);
      const policy = await this.activePolicy(manager, org, input.policyId);
      const requested = await this.requestedTime(manager, actor, input, policy, undefined);
      const workerPolicy = await this.lockWorkerPolicy(manager, org, policy.id, staffId);
      await this.requireRoom(manager, policy, workerPolicy, requested.total, availableOf);
      const now = this.deps.clock.now();
      const status: RequestStatus = policy.requiresApproval ? "pending" : "approved";
      const repo = manager.getRepository(TimeOffRequest);
      const request = await repo.save(
        repo.create({
          organizationId: org,
          staffId,
          policyId: policy.id,
          ...this.columnsOf(requested),
          status,
          note: input.note ?? null,
          submittedAt: now,
          submittedBy: actor.staffId,
          decidedAt: status === "approved" ? now : null,
          decidedBy: null,
          declineReason: null,
          cancelledAt: null,
        }),
      );
      if (status === "approved") await this.recordUse(manager, actor, request, workerPolicy, "use");
      return request;
    });
  }

  /** Changes a pending request (PUT); the body's absent fields keep their values. */
  async update(actor: Actor, id: string, input: UpdateTimeOffRequestInput): Promise<TimeOffRequest> {
    rejectNulls(input);
    return this.deps.unitOfWork.run(async (manager) => {
      const org = actor.organizationId;
      // The request first: an unknown one is a 404 whatever the body says.
      const current = await this.get(actor, id, manager);
      if (input.id != null && input.id.toLowerCase() !== current.id) throw invalidField("id", "The body's id must be the id in the path");
      requireSelfOr(actor, "timeoff:approve", "timeoff:self", current.staffId);
      const staffId = await resolveStaffMember(manager, org, input, "");
      if (staffId && staffId !== current.staffId) throw invalidField("employee", "A request's worker cannot change; cancel it and file a new one");
      const policy =
        input.policyId && input.policyId.toLowerCase() !== current.policyId
          ? await this.activePolicy(manager, org, input.policyId)
          : await this.policy(manager, org, current.policyId);
      const requested = await this.requestedTime(manager, actor, input, policy, current);
      const workerPolicy = await this.lockWorkerPolicy(manager, org, policy.id, current.staffId);
      const request = await this.lockRequest(manager, org, current.id);
      if (request.status !== "pending") throw conflict(`The request is ${request.status}; only a pending request can be changed`);
      const ownPending = request.policyId === policy.id ? request.totalHours : 0;
      await this.requireRoom(manager, policy, workerPolicy, requested.total, (balance) => availableOf(balance) + ownPending);
      Object.assign(request, this.columnsOf(requested), { policyId: policy.id });
      if (input.note !== undefined) request.note = input.note;
      return manager.getRepository(TimeOffRequest).save(request);
    });
  }

  /**
   * Approves a pending request. The worker policy is locked first, so approvals of the same
   * balance run one at a time and each sees the hours the previous one used.
   */
  async approve(actor: Actor, id: string): Promise<TimeOffRequest> {
    return this.deps.unitOfWork.run(async (manager) => {
      const org = actor.organizationId;
      const found = await this.records.get(actor, id, { manager });
      const policy = await this.policy(manager, org, found.policyId);
      const workerPolicy = await this.lockWorkerPolicy(manager, org, found.policyId, found.staffId, false);
      const request = await this.lockRequest(manager, org, found.id);
      if (request.status !== "pending") throw conflict(`The request is ${request.status}; only a pending request can be approved`);
      await this.requireRoom(manager, policy, workerPolicy, request.totalHours, (balance) => balance.hoursBalance);
      const approved = await this.transition(manager, actor, request, "pending", "approved", { decided_at: this.deps.clock.now(), decided_by: actor.staffId });
      await this.recordUse(manager, actor, approved, workerPolicy, "use");
      return approved;
    });
  }

  async decline(actor: Actor, id: string, reason: string | null | undefined): Promise<TimeOffRequest> {
    return this.deps.unitOfWork.run(async (manager) => {
      const request = await this.records.get(actor, id, { manager });
      return this.transition(manager, actor, request, "pending", "declined", {
        decided_at: this.deps.clock.now(),
        decided_by: actor.staffId,
        decline_reason: reason ?? null,
      });
    });
  }

  /** Cancels a pending or approved request; an approved one gives its hours back. */
  async cancel(actor: Actor, id: string): Promise<TimeOffRequest> {
    return this.deps.unitOfWork.run(async (manager) => {
      const org = actor.organizationId;
      const found = await this.get(actor, id, manager);
      requireSelfOr(actor, "timeoff:approve", "timeoff:self", found.staffId);
      const workerPolicy = await this.lockWorkerPolicy(manager, org, found.policyId, found.staffId, false);
      const request = await this.lockRequest(manager, org, found.id);
      if (request.status !== "pending" && request.status !== "approved") throw conflict(`The request is already ${request.status}`);
      const cancelled = await this.transition(manager, actor, request, request.status, "cancelled", { cancelled_at: this.deps.clock.now() });
      if (request.status === "approved") await this.recordUse(manager, actor, cancelled, workerPolicy, "give_back");
      return cancelled;
    });
  }

  /**
   * Moves a request from one status to another only if it still has the first: of two calls that
   * race (approve and decline), exactly one changes it and the other gets a 409.
   */
  private async transition(
    manager: EntityManager,
    actor: Actor,
    request: TimeOffRequest,
    from: RequestStatus,
    to: RequestStatus,
    set: Record<string, unknown>,
  ): Promise<TimeOffRequest> {
    if (!(await moveRequestStatus(manager, actor.organizationId, request.id, from, to, set))) {
      const now = await findOneByOrFail(manager, TimeOffRequest, { organizationId: actor.organizationId, id: request.id });
      throw conflict(`The request is ${now.status}; only a ${from} request can become ${to}`);
    }
    return findOneByOrFail(manager, TimeOffRequest, { organizationId: actor.organizationId, id: request.id });
  }

  private async recordUse(manager: EntityManager, actor: Actor, request: TimeOffRequest, workerPolicy: WorkerPolicy, kind: "use" | "give_back"): Promise<void> {
    await this.workerPolicies.record(manager, [
      {
        organizationId: request.organizationId,
        workerPolicyId: workerPolicy.id,
        kind,
        hours: kind === "use" ? -request.totalHours : request.totalHours,
        effectiveDate: await this.workerPolicies.today(manager, request.organizationId),
        requestId: request.id,
        recordedBy: actor.staffId,
        note: kind === "use" ? "Time off approved" : "Approved time off cancelled",
        recordedAt: this.deps.clock.now(),
      },
    ]);
  }

  /**
   * Refuses `hours` beyond what is left of the worker policy's balance (`left` of it), unless the
   * policy lets the balance go below zero: then the balance is not read at all.
   */
  private async requireRoom(
    manager: EntityManager,
    policy: TimeOffPolicy,
    workerPolicy: WorkerPolicy,
    hours: number,
    left: (balance: Balance) => number,
  ): Promise<void> {
    if (policy.allowNegativeBalance) return;
    const room = left(await this.workerPolicies.balance(manager, workerPolicy));
    if (hours > room + EPSILON) throw insufficient(hours, room);
  }

  private async lockWorkerPolicy(manager: EntityManager, org: string, policyId: string, staffId: string, mustBeIncluded = true): Promise<WorkerPolicy> {
    const workerPolicy = await this.workerPolicies.lock(manager, org, policyId, staffId);
    if (!workerPolicy || (mustBeIncluded && !workerPolicy.isIncluded)) throw conflict("The worker is not included in this policy", "NOT_IN_POLICY");
    return workerPolicy;
  }

  private async lockRequest(manager: EntityManager, org: string, id: string): Promise<TimeOffRequest> {
    const request = await findOneBy(manager, TimeOffRequest, { organizationId: org, id }, { lock: "update" });
    if (!request) throw notFound(this.records.label);
    return request;
  }

  private async policy(manager: EntityManager, org: string, id: string, share = false): Promise<TimeOffPolicy> {
    const where = { organizationId: org, id: id.toLowerCase() };
    if (!isUuid(id)) throw invalidField("policyId", `No policy has id "${id}"`);
    const policy = await findOneBy(manager, TimeOffPolicy, where, { lock: share ? "share" : undefined });
    if (!policy) throw unknownReference("policyId", `No policy has id "${id}"`);
    return policy;
  }

  /** Held FOR SHARE until commit: a removal of the policy then waits for this request and sees it. */
  private async activePolicy(manager: EntityManager, org: string, id: string): Promise<TimeOffPolicy> {
    const policy = await this.policy(manager, org, id, true);
    if (policy.status !== "Active") throw conflict(`The policy is ${policy.status}; requests can only be filed against an Active policy`);
    return policy;
  }

  private organization(manager: EntityManager, id: string): Promise<Organization> {
    return findOneByOrFail(manager, Organization, { id });
  }

  /** Works out zone, times and hours of a new or changed request, and checks the organization's rules. */
  private async requestedTime(
    manager: EntityManager,
    actor: Actor,
    input: CreateTimeOffRequestInput | UpdateTimeOffRequestInput,
    policy: TimeOffPolicy,
    current: TimeOffRequest | undefined,
  ): Promise<RequestedTime> {
    const org = actor.organizationId;
    const locationId = input.locationId !== undefined ? input.locationId : (current?.locationId ?? null);
    let location: Location | null = null;
    if (locationId) {
      if (!isUuid(locationId)) throw invalidField("locationId", `No location has id "${locationId}"`);
      location = await findOneBy(manager, Location, { organizationId: org, id: locationId.toLowerCase() });
      if (!location) throw unknownReference("locationId", `No location has id "${locationId}"`);
    }
    const zone = input.timezone
      ? requireTimeZone(input.timezone)
      : current && input.locationId === undefined
        ? current.timezone
        : (location?.timezone ?? (await this.organization(manager, org)).timezone);
    const start = input.startTime !== undefined ? parseTimestamp(input.startTime, zone, "startTime") : current!.startTime;
    const end = input.endTime !== undefined ? parseTimestamp(input.endTime, zone, "endTime") : current!.endTime;
    if (end <= start) throw invalidField("endTime", "endTime must be after startTime");
    if (input.utcOffset != null && input.utcOffset !== utcOffsetMinutes(start, zone)) {
      throw invalidField("utcOffset", `utcOffset ${input.utcOffset} is not the offset of ${zone} at startTime (${utcOffsetMinutes(start, zone)})`);
    }
    const isAllDay = input.isAllDay ?? current?.isAllDay ?? false;
    const unchanged = current && !input.startTime && !input.endTime && !input.timezone && input.isAllDay == null && !input.policyId;
    const days = input.hourConfiguration
      ? checkHourConfiguration(input.hourConfiguration, start, end, zone)
      : unchanged
        ? current.hourConfiguration
        : defaultHourConfiguration(start, end, zone, isAllDay, policy.fullDayDuration);
    if (!can(actor, "timeoff:approve")) await this.checkNotice(manager, org, start, zone);
    return { zone, locationId: location?.id ?? null, start, end, isAllDay, days, total: totalOf(days) };
  }

  /** Staff filing for themselves follow the organization's rules on past days and notice. */
  private async checkNotice(manager: EntityManager, org: string, start: Date, zone: string): Promise<void> {
    const settings = await this.settings.of(org, manager);
    const today = localDate(this.deps.clock.now(), zone);
    const firstDay = localDate(start, zone);
    if (!settings.allowPastRequests && firstDay < today) throw invalidField("startTime", "Requests for past days are not allowed in this organization");
    const earliest = addDays(today, settings.minimumNoticeDays);
    if (settings.minimumNoticeDays > 0 && firstDay < earliest && firstDay >= today) {
      throw invalidField("startTime", `Requests need ${settings.minimumNoticeDays} day(s) of notice: the first day off can be ${earliest} at the earliest`);
    }
  }

  private columnsOf(p: RequestedTime) {
    return {
      locationId: p.locationId,
      startTime: p.start,
      endTime: p.end,
      isAllDay: p.isAllDay,
      timezone: p.zone,
      hourConfiguration: p.days,
      totalHours: p.total,
    };
  }
}

/** A list bound: a timestamp as given, or a date: its start (from) or the start of the next day (until). */
function readBound(value: string, zone: string, field: string, until: boolean): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    parseTimestamp(`${value}T00:00`, zone, field);
    return startOfLocalDay(until ? addDays(value, 1) : value, zone);
  }
  return parseTimestamp(value, zone, field);
}
