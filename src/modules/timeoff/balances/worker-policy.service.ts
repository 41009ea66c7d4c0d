import { EntityManager } from "typeorm";
import { ServiceDeps } from "../../../common/services";
import { Actor, can, ownRecordsOnly } from "../../../auth/actor";
import { requireUuid } from "../../../common/ids";
import { Page, PageArgs, paginate } from "../../../common/pagination";
import { TenantRecords } from "../../../common/tenant-records";
import { localDate } from "../../../common/time";
import { rejectNulls } from "../../../common/validation";
import { conflict, forbidden, invalidField, notFound } from "../../../errors/app-error";
import { byKeys } from "../../../loaders/loaders";
import { Organization } from "../../organizations";
import { StaffListener, StaffMember } from "../../staff";
import { TimeOffPolicy } from "../policies/policy.entity";
import { TimeOffSettingsService } from "../settings/settings.service";
import { SetTimeOffBalanceInput, UpdateWorkerPolicyInput } from "./worker-policy.graphql";
import { LedgerEntry, WorkerPolicy } from "./worker-policy.entity";
import {
  assignedCountRows,
  balanceRows,
  insertAdjustmentTo,
  insertLedgerRows,
  LedgerRow,
  syncDefaultAssignments,
  upsertManualInclusion,
  ledgerQuery,
  lockWorkerPolicy,
  selectStaffMemberPolicies,
  selectWorkerPoliciesByPair,
  whereWorkerPoliciesListed,
} from "./worker-policy.store";
import { findOneBy, findOneByOrFail } from "../../../common/entity-reads";

/** A balance as the ledger has it: the sum of its rows, and what pending requests already claim. */
export interface Balance {
  hoursBalance: number;
  pendingHours: number;
}

/** What the balance can still give: the balance less every pending request on it. */
export const availableOf = (b: Balance) => b.hoursBalance - b.pendingHours;

const notInPolicy = (worker: string, policy: string) =>
  conflict(`${worker} is not included in the policy "${policy}"; include them first (isIncluded: true)`, "NOT_IN_POLICY");

/**
 * Worker policies and the ledger behind their balances. Every balance change goes through
 * `record`, so the ledger is the only truth; balances are sums computed when read.
 */
export class WorkerPolicyService {
  readonly records: TenantRecords<WorkerPolicy>;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly settings: TimeOffSettingsService,
  ) {
    this.records = new TenantRecords(deps, WorkerPolicy, "Worker policy");
  }

  /** Staff who join or change are included in (or leave) the policies whose defaultSettings match them. */
  readonly onStaffChanged: StaffListener = (manager, staff) => this.syncDefaults(manager, staff.organizationId, { staffId: staff.id });

  /** The organization's calendar day now: the day ledger rows and inclusions are dated with. */
  async today(manager: EntityManager, organizationId: string): Promise<string> {
    const organization = await findOneByOrFail(manager, Organization, { id: organizationId });
    return localDate(this.deps.clock.now(), organization.timezone);
  }

  /**
   * Brings the default assignments in line with defaultSettings, for one policy or one staff
   * member: matching staff are included, default rows that no longer match are excluded, and rows
   * set by hand are left as they are.
   */
  async syncDefaults(manager: EntityManager, organizationId: string, scope: { policyId?: string; staffId?: string }): Promise<void> {
    const today = await this.today(manager, organizationId);
    await syncDefaultAssignments(manager, organizationId, scope.policyId ?? null, scope.staffId ?? null, today);
  }

  /** Includes or excludes a staff member by hand; one newly included accrues from today. */
  async setIncluded(manager: EntityManager, organizationId: string, policyId: string, staffId: string, isIncluded: boolean): Promise<void> {
    await upsertManualInclusion(manager, organizationId, policyId, staffId, isIncluded, await this.today(manager, organizationId));
  }

  /**
   * The worker policy, locked until the transaction ends: every check of a balance followed by a
   * write (filing, approving, adjusting, accruing) holds this lock, so two of them cannot both see
   * the hours that only one of them may take.
   */
  async lock(manager: EntityManager, organizationId: string, policyId: string, staffId: string): Promise<WorkerPolicy | null> {
    return lockWorkerPolicy(manager, organizationId, policyId, staffId);
  }

  /**
   * Sets one included worker's balance (see `adjustTo`). The policy is held FOR SHARE: a removal
   * of the policy waits for this change, or goes first and this finds no policy.
   */
  async setBalance(actor: Actor, policyId: string, staffId: string, input: SetTimeOffBalanceInput): Promise<WorkerPolicy> {
    const org = actor.organizationId;
    const policyKey = requireUuid(policyId, "Policy");
    const staffKey = requireUuid(staffId, "Staff member");
    return this.deps.unitOfWork.run(async (manager) => {
      const policy = await this.sharePolicy(manager, org, policyKey, "Policy");
      const staff = await findOneBy(manager, StaffMember, { organizationId: org, id: staffKey });
      if (!staff || staff.deletedAt) throw notFound("Staff member");
      const workerPolicy = await this.lock(manager, org, policy.id, staff.id);
      if (!workerPolicy?.isIncluded) throw notInPolicy(staff.name, policy.name);
      await this.adjustTo(manager, actor, workerPolicy, input.hoursBalance, input.note);
      return workerPolicy;
    });
  }

  /** PATCH of one worker policy: include or exclude the worker by hand, then set the balance. */
  async update(actor: Actor, id: string, input: UpdateWorkerPolicyInput): Promise<WorkerPolicy> {
    rejectNulls(input);
    if (input.note != null && input.hoursBalance === undefined) throw invalidField("note", "A note is kept with a balance change: give hoursBalance too");
    const org = actor.organizationId;
    return this.deps.unitOfWork.run(async (manager) => {
      const found = await this.records.get(actor, id, { manager });
      const policy = await this.sharePolicy(manager, org, found.policyId, this.records.label);
      let workerPolicy = (await this.lock(manager, org, found.policyId, found.staffId))!;
      if (input.isIncluded != null && input.isIncluded !== workerPolicy.isIncluded) {
        await this.setIncluded(manager, org, found.policyId, found.staffId, input.isIncluded);
        workerPolicy = (await this.lock(manager, org, found.policyId, found.staffId))!;
      }
      if (input.hoursBalance != null) {
        if (!workerPolicy.isIncluded) {
          const staff = await findOneByOrFail(manager, StaffMember, { organizationId: org, id: found.staffId });
          throw notInPolicy(staff.name, policy.name);
        }
        await this.adjustTo(manager, actor, workerPolicy, input.hoursBalance, input.note);
      }
      return workerPolicy;
    });
  }

  /** The policy of a balance change, held FOR SHARE until commit; a removed one is not found. */
  private async sharePolicy(manager: EntityManager, organizationId: string, id: string, label: string): Promise<TimeOffPolicy> {
    const policy = await findOneBy(manager, TimeOffPolicy, { organizationId, id }, { lock: "share" });
    if (!policy) throw notFound(label);
    return policy;
  }

  /**
   * Writes the difference between `hoursBalance` and the ledger's sum as one adjustment row with
   * the note and the actor (nothing when they are equal). The caller holds the worker policy's
   * lock and the difference is computed in SQL on exact numerics, so of two concurrent sets the
   * later one sees the earlier's row and the ledger sums to the last value. Dated `today` (the
   * organization's day) unless the caller already has it.
   */
  async adjustTo(
    manager: EntityManager,
    actor: Actor,
    workerPolicy: WorkerPolicy,
    hoursBalance: number,
    note: string | null | undefined,
    today?: string,
  ): Promise<void> {
    const org = actor.organizationId;
    const effectiveDate = today ?? (await this.today(manager, org));
    await insertAdjustmentTo(
      manager,
      org,
      workerPolicy.id,
      String(hoursBalance),
      effectiveDate,
      actor.staffId,
      note ?? `Balance set to ${hoursBalance} h`,
      this.deps.clock.now(),
    );
  }

  /** Balances of many worker policies, as the ledger and the pending requests have them now. */
  async balances(manager: EntityManager, organizationId: string, workerPolicyIds: readonly string[]): Promise<Balance[]> {
    const rows = await balanceRows(manager, organizationId, workerPolicyIds);
    const found = byKeys(workerPolicyIds, rows, (r) => r.id);
    return found.map((r) => ({ hoursBalance: Number(r?.balance ?? 0), pendingHours: Number(r?.pending ?? 0) }));
  }

  /**
   * Whether `actor` sees balances: whoever reads everyone's time off does; a worker only where the
   * organization shows balances to workers.
   */
  async showsBalancesTo(actor: Actor): Promise<boolean> {
    if (can(actor, "timeoff:read")) return true;
    return (await this.settings.of(actor.organizationId)).workersSeeBalances;
  }

  /** Balances as `balances` has them, whoever asks: whether the caller may see them is `showsBalancesTo`'s answer. */
  balancesOf(organizationId: string, workerPolicyIds: readonly string[]): Promise<Balance[]> {
    return this.balances(this.deps.db.manager, organizationId, workerPolicyIds);
  }

  async balance(manager: EntityManager, workerPolicy: WorkerPolicy): Promise<Balance> {
    const [balance] = await this.balances(manager, workerPolicy.organizationId, [workerPolicy.id]);
    return balance;
  }

  /** Appends rows to the ledger; rows whose period is already there are skipped (accruals are idempotent). */
  async record(manager: EntityManager, rows: LedgerRow[]): Promise<number> {
    if (!rows.length) return 0;
    return insertLedgerRows(manager, rows);
  }

  /** Worker policies of the organization, filtered; a worker without `timeoff:read` sees only their own. */
  list(actor: Actor, args: PageArgs & { policyId?: string | null; workerId?: string | null }): Promise<Page<WorkerPolicy>> {
    const own = ownRecordsOnly(actor, "timeoff:read", "timeoff:self");
    return this.records.list(actor, args, { property: "id", column: "id" }, (q) =>
      whereWorkerPoliciesListed(q, {
        policyId: args.policyId ? requireUuid(args.policyId, "Policy") : undefined,
        staffId: args.workerId ? requireUuid(args.workerId, "Staff member") : undefined,
        own,
      }),
    );
  }

  /** One staff member's policies, by policy name. */
  async ofStaffMember(actor: Actor, staffId: string): Promise<WorkerPolicy[]> {
    const own = ownRecordsOnly(actor, "timeoff:read", "timeoff:self");
    const id = requireUuid(staffId, "Staff member");
    const staff = await findOneBy(this.deps.db, StaffMember, { organizationId: actor.organizationId, id });
    if (!staff || (own && own !== id)) throw notFound("Staff member");
    return selectStaffMemberPolicies(this.deps.db, actor.organizationId, id);
  }

  /** The ledger of one worker policy, in the order it was written. */
  async ledger(actor: Actor, workerPolicyId: string, args: PageArgs): Promise<Page<LedgerEntry>> {
    const own = ownRecordsOnly(actor, "timeoff:read", "timeoff:self");
    const workerPolicy = await this.records.get(actor, workerPolicyId);
    if (own && workerPolicy.staffId !== own) throw notFound("Worker policy");
    if (!(await this.showsBalancesTo(actor))) throw forbidden("This organization does not show balances to workers");
    return paginate(ledgerQuery(this.deps.db, actor.organizationId, workerPolicy.id), args, { property: "seq", column: "seq" });
  }

  /** Included workers per policy, counting only staff who have not left. */
  async assignedCounts(organizationId: string, policyIds: readonly string[]): Promise<number[]> {
    const rows = await assignedCountRows(this.deps.db, organizationId, policyIds);
    return byKeys(policyIds, rows, (r) => r.policy_id).map((r) => Number(r?.count ?? 0));
  }

  /** Worker policies by (policy, worker), for requests; null where the worker is not in the policy. */
  async byPolicyAndStaffMember(organizationId: string, keys: readonly string[]): Promise<(WorkerPolicy | null)[]> {
    const pairs = keys.map((k) => k.split(":"));
    const rows = await selectWorkerPoliciesByPair(
      this.deps.db,
      organizationId,
      pairs.map((p) => p[0]),
      pairs.map((p) => p[1]),
    );
    return byKeys(keys, rows, (w) => `${w.policyId}:${w.staffId}`);
  }
}
