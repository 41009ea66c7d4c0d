import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import { actorOf, Requires } from "../../../graphql/authorization";
import type { RequestContext } from "../../../graphql/context";
import { TimeOffPolicyType } from "./policy-type.entity";
import { CreateTimeOffPolicyInput, UpdateTimeOffPolicyInput } from "./policy.graphql";
import { DefaultSettings, TimeOffPolicy } from "./policy.entity";
import { assignedStaffCountLoader, policyTypeLoader } from "../timeoff.loaders";

@Resolver(() => TimeOffPolicy)
export class TimeOffPolicyResolver {
  @Query(() => [TimeOffPolicyType], { description: "The organization's policy types" })
  @Requires("timeoff:self", "timeoff:read", "timeoff:manage")
  timeOffPolicyTypes(@Ctx() ctx: RequestContext): Promise<TimeOffPolicyType[]> {
    return ctx.services.timeOffPolicies.listTypes(actorOf(ctx));
  }

  @Query(() => [TimeOffPolicy], { description: "Active policies by name; every status with fetchAllStatuses" })
  @Requires("timeoff:self", "timeoff:read", "timeoff:manage")
  timeOffPolicies(
    @Arg("fetchAllStatuses", () => Boolean, { nullable: true }) fetchAllStatuses: boolean | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<TimeOffPolicy[]> {
    return ctx.services.timeOffPolicies.list(actorOf(ctx), fetchAllStatuses ?? false);
  }

  @Query(() => TimeOffPolicy)
  @Requires("timeoff:self", "timeoff:read", "timeoff:manage")
  timeOffPolicy(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<TimeOffPolicy> {
    return ctx.services.timeOffPolicies.get(actorOf(ctx), id);
  }

  @Mutation(() => TimeOffPolicy, { description: "Creates a Draft policy" })
  @Requires("timeoff:manage")
  createTimeOffPolicy(@Arg("input") input: CreateTimeOffPolicyInput, @Ctx() ctx: RequestContext): Promise<TimeOffPolicy> {
    return ctx.services.timeOffPolicies.create(actorOf(ctx), input);
  }

  @Mutation(() => TimeOffPolicy, { description: "Changes a policy; workerPolicies include, exclude and set balances" })
  @Requires("timeoff:manage")
  updateTimeOffPolicy(@Arg("id", () => ID) id: string, @Arg("input") input: UpdateTimeOffPolicyInput, @Ctx() ctx: RequestContext): Promise<TimeOffPolicy> {
    return ctx.services.timeOffPolicies.update(actorOf(ctx), id, input);
  }

  @Mutation(() => TimeOffPolicy, { description: "Draft or Inactive → Active" })
  @Requires("timeoff:manage")
  activateTimeOffPolicy(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<TimeOffPolicy> {
    return ctx.services.timeOffPolicies.activate(actorOf(ctx), id);
  }

  @Mutation(() => TimeOffPolicy, { description: "Active → Inactive: no new requests, no accruals" })
  @Requires("timeoff:manage")
  deactivateTimeOffPolicy(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<TimeOffPolicy> {
    return ctx.services.timeOffPolicies.deactivate(actorOf(ctx), id);
  }

  @Mutation(() => Boolean, { description: "Removes a policy no pending or approved request uses; its ledger stays for the audit" })
  @Requires("timeoff:manage")
  deleteTimeOffPolicy(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.timeOffPolicies.remove(actorOf(ctx), id);
  }

  @FieldResolver(() => TimeOffPolicyType)
  async type(@Root() policy: TimeOffPolicy, @Ctx() ctx: RequestContext): Promise<TimeOffPolicyType> {
    return (await policyTypeLoader(ctx).load(policy.typeId))!;
  }

  @FieldResolver(() => Int, { description: "Included workers who have not left" })
  assignedStaffCount(@Root() policy: TimeOffPolicy, @Ctx() ctx: RequestContext): Promise<number> {
    return assignedStaffCountLoader(ctx).load(policy.id);
  }

  @FieldResolver(() => DefaultSettings)
  defaultSettings(@Root() policy: TimeOffPolicy): DefaultSettings {
    if (!policy.assignedStaffType) return { assignedStaff: null };
    return { assignedStaff: { type: policy.assignedStaffType, value: policy.assignedStaffIds.length ? policy.assignedStaffIds.join(",") : null } };
  }
}
