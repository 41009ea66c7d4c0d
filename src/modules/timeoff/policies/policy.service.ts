import { EntityManager } from "typeorm";
import { ServiceDeps } from "../../../common/services";
import { Actor } from "../../../auth/actor";
import { requireInOrganization, TenantRecords } from "../../../common/tenant-records";
import { rejectNulls } from "../../../common/validation";
import { AppError, conflict, invalidField } from "../../../errors/app-error";
import { byKeys } from "../../../loaders/loaders";
import { resolveStaffMember } from "./employee-ref";
import { TimeOffPolicyType } from "./policy-type.entity";
import { CreateTimeOffPolicyInput, UpdateTimeOffPolicyInput, WorkerPolicyInput } from "./policy.graphql";
import { DefaultSettings, FixedAmountSettings, LimitSettings, PerHourEarnings, TimeOffPolicy } from "./policy.entity";
import { requestsUsingPolicy, selectPolicies, selectPoliciesWithRemoved } from "./policy.store";
import { TimeOffSettingsService } from "../settings/settings.service";
import { WorkerPolicyService } from "../balances/worker-policy.service";

const FIELD = "limitSettings";

function fixedAmountOf(input: FixedAmountSettings | null | undefined, weekStart: string, required: boolean): FixedAmountSettings {
  const cycle = input?.accrualCycle ?? "AllAtOnce";
  const frequency = input?.accrualFrequency ?? null;
  if (required && cycle === "Periodic" && !frequency) {
    throw invalidField(`${FIELD}.fixedAmount.accrualFrequency`, "A periodic accrual needs accrualFrequency: EveryOneWeek, EveryTwoWeeks or EveryMonth");
  }
  const weekly = cycle === "Periodic" && frequency !== "EveryMonth";
  return {
    hours: input?.hours ?? null,
    daysEarned: input?.daysEarned ?? null,
    accrualCycle: cycle,
    accrualFrequency: frequency,
    accrualDay: input?.accrualDay ?? (weekly ? weekStart : null),
    accrualDate: input?.accrualDate ?? (weekly ? null : "1st"),
  };
}

function perHourOf(input: PerHourEarnings | null | undefined, required: boolean): PerHourEarnings {
  const value: PerHourEarnings = {
    hoursEarned: input?.hoursEarned ?? null,
    hoursWorked: input?.hoursWorked ?? null,
    isLimitedMaximumBalance: input?.isLimitedMaximumBalance ?? false,
    maximumHoursBalance: input?.maximumHoursBalance ?? null,
  };
  if (required) {
    if (value.hoursEarned == null) throw invalidField(`${FIELD}.perHourEarnings.hoursEarned`, "Per-hour earnings need hoursEarned");
    if (value.hoursWorked == null) throw invalidField(`${FIELD}.perHourEarnings.hoursWorked`, "Per-hour earnings need hoursWorked");
    if (value.isLimitedMaximumBalance && value.maximumHoursBalance == null) {
      throw invalidField(`${FIELD}.perHourEarnings.maximumHoursBalance`, "A limited maximum balance needs maximumHoursBalance");
    }
  }
  return value;
}

/** Limit settings with every field present (null where unused), checked for what the chosen accrual needs. */
export function normalizeLimitSettings(input: LimitSettings | undefined, weekStart: string): LimitSettings {
  const isFixedAmount = input?.isFixedAmount ?? true;
  return {
    isFixedAmount,
    fixedAmount: fixedAmountOf(input?.fixedAmount, weekStart, isFixedAmount),
    perHourEarnings: perHourOf(input?.perHourEarnings, !isFixedAmount),
  };
}

/** How many of the requests in the way a refused removal names (the message gives the count). */
const LISTED_IN_THE_WAY = 20;

const ASSIGNABLE_TABLES: Record<string, string> = { Role: "roles", Location: "locations", Staff: "staff_members" };

export class TimeOffPolicyService {
  readonly records: TenantRecords<TimeOffPolicy>;
  readonly types: TenantRecords<TimeOffPolicyType>;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly workerPolicies: WorkerPolicyService,
    private readonly settings: TimeOffSettingsService,
  ) {
    this.records = new TenantRecords(deps, TimeOffPolicy, "Policy");
    this.types = new TenantRecords(deps, TimeOffPolicyType, "Policy type");
  }

  listTypes(actor: Actor): Promise<TimeOffPolicyType[]> {
    return this.types.repo.find({ where: { organizationId: actor.organizationId }, order: { name: "ASC" } });
  }

  /** Active policies, or every policy with `fetchAllStatuses`, by name. */
  list(actor: Actor, fetchAllStatuses: boolean): Promise<TimeOffPolicy[]> {
    return selectPolicies(this.deps.db, actor.organizationId, fetchAllStatuses);
  }

  get(actor: Actor, id: string): Promise<TimeOffPolicy> {
    return this.records.get(actor, id);
  }

  /** Policies by id, removed ones included: declined and cancelled requests still name theirs. */
  async byIdsWithRemoved(organizationId: string, ids: readonly string[]): Promise<(TimeOffPolicy | null)[]> {
    const rows = await selectPoliciesWithRemoved(this.deps.db, organizationId, ids);
    return byKeys(ids, rows, (p) => p.id);
  }

  async create(actor: Actor, input: CreateTimeOffPolicyInput): Promise<TimeOffPolicy> {
    return this.deps.unitOfWork.run(async (manager) => {
      const settings = await this.settings.get(actor, manager);
      const repo = manager.getRepository(TimeOffPolicy);
      const policy = repo.create({
        organizationId: actor.organizationId,
        name: input.name.trim(),
        status: "Draft",
        paid: true,
        units: "hours",
        requiresApproval: true,
        allowNegativeBalance: false,
        carryoverLimit: null,
        fullDayDuration: settings.defaultFullDayHours,
        assignedStaffType: null,
        assignedStaffIds: [],
        accruingSince: null,
      });
      await this.apply(manager, policy, input, settings.weekStart);
      const saved = await repo.save(policy);
      await this.workerPolicies.syncDefaults(manager, actor.organizationId, { policyId: saved.id });
      await this.applyWorkerPolicies(manager, actor, saved, input.workerPolicies ?? []);
      return saved;
    });
  }

  async update(actor: Actor, id: string, input: UpdateTimeOffPolicyInput): Promise<TimeOffPolicy> {
    rejectNulls(input);
    return this.deps.unitOfWork.run(async (manager) => {
      const policy = await this.records.get(actor, id, { manager, lock: true });
      const settings = await this.settings.get(actor, manager);
      if (input.name !== undefined) policy.name = input.name.trim();
      await this.apply(manager, policy, input, settings.weekStart);
      const saved = await manager.getRepository(TimeOffPolicy).save(policy);
      if (input.defaultSettings !== undefined) await this.workerPolicies.syncDefaults(manager, actor.organizationId, { policyId: saved.id });
      await this.applyWorkerPolicies(manager, actor, saved, input.workerPolicies ?? []);
      return saved;
    });
  }

  /**
   * Removes a policy no pending or approved request uses (409 naming them otherwise): it leaves
   * every list and read, stops accruing, and keeps its worker policies and ledger for the audit.
   * The policy row is locked first and filing a request holds it FOR SHARE, so a request filed
   * concurrently either commits before the check (and is counted) or finds no policy.
   */
  async remove(actor: Actor, id: string): Promise<boolean> {
    return this.deps.unitOfWork.run(async (manager) => {
      const policy = await this.records.get(actor, id, { manager, lock: true });
      const { count, ids } = await requestsUsingPolicy(manager, actor.organizationId, policy.id, LISTED_IN_THE_WAY);
      if (Number(count) > 0) {
        const message = `${count} pending or approved time-off request(s) use this policy; cancel or decline them first, or deactivate the policy instead`;
        throw new AppError("POLICY_IN_USE", message, [
          { field: "timeOffRequests", message },
          ...(ids ?? []).map((requestId, i) => ({ field: `timeOffRequests[${i}].id`, message: requestId })),
        ]);
      }
      await manager.getRepository(TimeOffPolicy).softDelete({ organizationId: actor.organizationId, id: policy.id });
      return true;
    });
  }

  /** Draft or Inactive → Active; accruals count from today. */
  activate(actor: Actor, id: string): Promise<TimeOffPolicy> {
    return this.transition(actor, id, ["Draft", "Inactive"], "Active");
  }

  deactivate(actor: Actor, id: string): Promise<TimeOffPolicy> {
    return this.transition(actor, id, ["Active"], "Inactive");
  }

  private async transition(actor: Actor, id: string, from: string[], to: string): Promise<TimeOffPolicy> {
    return this.deps.unitOfWork.run(async (manager) => {
      const policy = await this.records.get(actor, id, { manager, lock: true });
      if (!from.includes(policy.status)) throw conflict(`The policy is ${policy.status}; only a ${from.join(" or ")} policy can become ${to}`);
      policy.status = to;
      if (to === "Active") policy.accruingSince = await this.workerPolicies.today(manager, actor.organizationId);
      return manager.getRepository(TimeOffPolicy).save(policy);
    });
  }

  /** Copies the body's policy fields onto the policy, checking every reference. */
  private async apply(
    manager: EntityManager,
    policy: TimeOffPolicy,
    input: CreateTimeOffPolicyInput | UpdateTimeOffPolicyInput,
    weekStart: string,
  ): Promise<void> {
    const org = policy.organizationId;
    if (input.typeId !== undefined) {
      await requireInOrganization(manager, "time_off_policy_types", org, [input.typeId], "typeId");
      policy.typeId = input.typeId.toLowerCase();
    }
    if (input.locationId !== undefined) {
      if (input.locationId !== null) await requireInOrganization(manager, "locations", org, [input.locationId], "locationId");
      policy.locationId = input.locationId?.toLowerCase() ?? null;
    }
    // A null on a field that always has a value means "not given" (a new policy keeps its default;
    // an update refuses it first, in rejectNulls); carryoverLimit's null means "no limit".
    if (input.paid != null) policy.paid = input.paid;
    if (input.units != null) policy.units = input.units;
    if (input.requiresApproval != null) policy.requiresApproval = input.requiresApproval;
    if (input.allowNegativeBalance != null) policy.allowNegativeBalance = input.allowNegativeBalance;
    if (input.carryoverLimit !== undefined) policy.carryoverLimit = input.carryoverLimit;
    if (input.fullDayDuration != null) policy.fullDayDuration = input.fullDayDuration;
    if (input.limitSettings != null || !policy.limitSettings) policy.limitSettings = normalizeLimitSettings(input.limitSettings ?? undefined, weekStart);
    if (input.defaultSettings !== undefined) await this.applyDefaultSettings(manager, policy, input.defaultSettings);
  }

  private async applyDefaultSettings(manager: EntityManager, policy: TimeOffPolicy, settings: DefaultSettings | null): Promise<void> {
    const assigned = settings?.assignedStaff;
    if (!assigned) {
      policy.assignedStaffType = null;
      policy.assignedStaffIds = [];
      return;
    }
    const ids =
      assigned.type === "All"
        ? []
        : [
            ...new Set(
              (assigned.value ?? "")
                .split(",")
                .map((v) => v.trim().toLowerCase())
                .filter(Boolean),
            ),
          ];
    const field = "defaultSettings.assignedStaff.value";
    if (assigned.type !== "All") {
      if (!ids.length) throw invalidField(field, `Assigning by ${assigned.type} needs the id(s) in value`);
      await requireInOrganization(manager, ASSIGNABLE_TABLES[assigned.type], policy.organizationId, ids, field);
    }
    policy.assignedStaffType = assigned.type;
    policy.assignedStaffIds = ids;
  }

  /** The body's workerPolicies: include, exclude, and set balances through adjustments. */
  private async applyWorkerPolicies(manager: EntityManager, actor: Actor, policy: TimeOffPolicy, items: WorkerPolicyInput[]): Promise<void> {
    const today = await this.workerPolicies.today(manager, actor.organizationId);
    for (const [index, item] of items.entries()) {
      const field = `workerPolicies[${index}]`;
      const staffId = await resolveStaffMember(manager, actor.organizationId, item, field);
      if (!staffId) throw invalidField(field, "Each worker policy needs employee or workerId");
      const existing = await this.workerPolicies.lock(manager, actor.organizationId, policy.id, staffId);
      // A worker named without isIncluded is included if new to the policy, else left as they are.
      const include = item.isIncluded ?? existing?.isIncluded ?? true;
      if (include !== existing?.isIncluded) await this.workerPolicies.setIncluded(manager, actor.organizationId, policy.id, staffId, include);
      if (item.hoursBalance == null) continue;
      const workerPolicy = existing ?? (await this.workerPolicies.lock(manager, actor.organizationId, policy.id, staffId))!;
      await this.workerPolicies.adjustTo(manager, actor, workerPolicy, item.hoursBalance, null, today);
    }
  }
}
