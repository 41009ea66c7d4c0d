import { Arg, Args, Ctx, Float, ID, Mutation, Query, Resolver, Root, FieldResolver } from "type-graphql";
import { actorOf, Requires } from "../../../graphql/authorization";
import { round2 } from "../../../common/entity-columns";
import { Page, PageArgs } from "../../../common/pagination";
import type { RequestContext } from "../../../graphql/context";
import { staffLoader, StaffMember } from "../../staff";
import { TimeOffPolicy } from "../policies/policy.entity";
import { visibleBalance, policyLoader } from "../timeoff.loaders";
import { availableOf } from "./worker-policy.service";
import { LedgerEntry, WorkerPolicy } from "./worker-policy.entity";
import {
  AccrualSummaryView,
  LedgerConnection,
  SetTimeOffBalanceInput,
  UpdateWorkerPolicyInput,
  WorkerPolicyConnection,
  WorkerPolicyFilterArgs,
} from "./worker-policy.graphql";

@Resolver(() => WorkerPolicy)
export class WorkerPolicyResolver {
  @Query(() => WorkerPolicyConnection, { description: "Worker policies, by policy or worker; a worker sees their own" })
  @Requires("timeoff:self", "timeoff:read")
  workerPolicies(@Args() args: WorkerPolicyFilterArgs, @Ctx() ctx: RequestContext): Promise<Page<WorkerPolicy>> {
    return ctx.services.workerPolicies.list(actorOf(ctx), args);
  }

  @Query(() => [WorkerPolicy], { description: "One worker's policies, by policy name" })
  @Requires("timeoff:self", "timeoff:read")
  staffTimeOffPolicies(@Arg("workerId", () => ID) staffId: string, @Ctx() ctx: RequestContext): Promise<WorkerPolicy[]> {
    return ctx.services.workerPolicies.ofStaffMember(actorOf(ctx), staffId);
  }

  @Query(() => LedgerConnection, { description: "Every movement of one worker policy's balance, oldest first" })
  @Requires("timeoff:self", "timeoff:read")
  timeOffLedger(@Arg("workerPolicyId", () => ID) workerPolicyId: string, @Args() page: PageArgs, @Ctx() ctx: RequestContext): Promise<Page<LedgerEntry>> {
    return ctx.services.workerPolicies.ledger(actorOf(ctx), workerPolicyId, page);
  }

  @Mutation(() => WorkerPolicy, { description: "Sets one included worker's balance; the difference is an adjustment row in the ledger with the note" })
  @Requires("timeoff:manage")
  setTimeOffBalance(
    @Arg("policyId", () => ID) policyId: string,
    @Arg("workerId", () => ID) staffId: string,
    @Arg("input") input: SetTimeOffBalanceInput,
    @Ctx() ctx: RequestContext,
  ): Promise<WorkerPolicy> {
    return ctx.services.workerPolicies.setBalance(actorOf(ctx), policyId, staffId, input);
  }

  @Mutation(() => WorkerPolicy, { description: "Includes or excludes the worker by hand and sets the balance (an adjustment row in the ledger with the note)" })
  @Requires("timeoff:manage")
  updateWorkerPolicy(@Arg("id", () => ID) id: string, @Arg("input") input: UpdateWorkerPolicyInput, @Ctx() ctx: RequestContext): Promise<WorkerPolicy> {
    return ctx.services.workerPolicies.update(actorOf(ctx), id, input);
  }

  @Mutation(() => AccrualSummaryView, { description: "Applies the accruals due up to `until` (default: today); repeating it adds nothing" })
  @Requires("timeoff:manage")
  accrueTimeOff(@Arg("until", () => String, { nullable: true }) until: string | undefined, @Ctx() ctx: RequestContext): Promise<AccrualSummaryView> {
    return ctx.services.timeOffAccruals.accrue(actorOf(ctx).organizationId, until ?? undefined);
  }

  @FieldResolver(() => String, { description: "The policy's name" })
  async name(@Root() workerPolicy: WorkerPolicy, @Ctx() ctx: RequestContext): Promise<string> {
    return (await policyLoader(ctx).load(workerPolicy.policyId))!.name;
  }

  @FieldResolver(() => TimeOffPolicy)
  async policy(@Root() workerPolicy: WorkerPolicy, @Ctx() ctx: RequestContext): Promise<TimeOffPolicy> {
    return (await policyLoader(ctx).load(workerPolicy.policyId))!;
  }

  @FieldResolver(() => StaffMember, { nullable: true })
  worker(@Root() workerPolicy: WorkerPolicy, @Ctx() ctx: RequestContext): Promise<StaffMember | null> {
    return staffLoader(ctx).load(workerPolicy.staffId);
  }

  @FieldResolver(() => Float, { nullable: true, description: "Sum of the ledger, in hours; null where the organization hides balances from workers" })
  async hoursBalance(@Root() workerPolicy: WorkerPolicy, @Ctx() ctx: RequestContext): Promise<number | null> {
    const balance = await visibleBalance(ctx, workerPolicy.id);
    return balance && round2(balance.hoursBalance);
  }

  @FieldResolver(() => Float, { nullable: true, description: "hoursBalance less the hours of pending requests" })
  async availableBalance(@Root() workerPolicy: WorkerPolicy, @Ctx() ctx: RequestContext): Promise<number | null> {
    const balance = await visibleBalance(ctx, workerPolicy.id);
    return balance && round2(availableOf(balance));
  }
}

@Resolver(() => LedgerEntry)
export class LedgerEntryResolver {
  @FieldResolver(() => Float, { description: "Hours added (positive) or taken (negative), rounded to 2 decimals" })
  hours(@Root() entry: LedgerEntry): number {
    return round2(entry.hours);
  }

  @FieldResolver(() => StaffMember, { nullable: true, description: "Who made the change" })
  recorder(@Root() entry: LedgerEntry, @Ctx() ctx: RequestContext): Promise<StaffMember | null> | null {
    return entry.recordedBy ? staffLoader(ctx).load(entry.recordedBy) : null;
  }
}
