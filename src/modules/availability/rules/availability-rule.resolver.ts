import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../../graphql/authorization";
import type { RequestContext } from "../../../graphql/context";
import { AvailabilityRule, AvailabilitySettings } from "./availability-rule.entity";
import {
  AvailabilityRuleListArgs,
  CreateAvailabilityRuleInput,
  ResolvedAvailabilityArgs,
  StaffDayAvailability,
  UpdateAvailabilityRuleInput,
  UpdateAvailabilitySettingsInput,
} from "./availability-rule.graphql";

const READ = ["availability:read", "availability:self"] as const;
const WRITE = ["availability:manage", "availability:self"] as const;

@Resolver(() => AvailabilityRule)
export class AvailabilityRuleResolver {
  @Query(() => [AvailabilityRule], { description: "A staff member's availability rules" })
  @Requires(...READ)
  availabilityRules(
    @Arg("staffId", () => ID) staffId: string,
    @Args() args: AvailabilityRuleListArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<AvailabilityRule[]> {
    return ctx.services.availability.list(actorOf(ctx), staffId, args);
  }

  @Query(() => AvailabilityRule)
  @Requires(...READ)
  availabilityRule(@Arg("staffId", () => ID) staffId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<AvailabilityRule> {
    return ctx.services.availability.get(actorOf(ctx), staffId, id);
  }

  @Mutation(() => AvailabilityRule, { description: "A worker's own rule is PENDING where the organization asks for approval; a manager's counts at once" })
  @Requires(...WRITE)
  createAvailabilityRule(
    @Arg("staffId", () => ID) staffId: string,
    @Arg("input") input: CreateAvailabilityRuleInput,
    @Ctx() ctx: RequestContext,
  ): Promise<AvailabilityRule> {
    return ctx.services.availability.create(actorOf(ctx), staffId, input);
  }

  @Mutation(() => AvailabilityRule)
  @Requires(...WRITE)
  updateAvailabilityRule(
    @Arg("staffId", () => ID) staffId: string,
    @Arg("id", () => ID) id: string,
    @Arg("input") input: UpdateAvailabilityRuleInput,
    @Ctx() ctx: RequestContext,
  ): Promise<AvailabilityRule> {
    return ctx.services.availability.update(actorOf(ctx), staffId, id, input);
  }

  @Mutation(() => Boolean)
  @Requires(...WRITE)
  deleteAvailabilityRule(@Arg("staffId", () => ID) staffId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.availability.delete(actorOf(ctx), staffId, id);
  }

  @Mutation(() => AvailabilityRule, { description: "A pending rule starts to count" })
  @Requires("availability:manage")
  approveAvailabilityRule(@Arg("staffId", () => ID) staffId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<AvailabilityRule> {
    return ctx.services.availability.decide(actorOf(ctx), staffId, id, "APPROVED");
  }

  @Mutation(() => AvailabilityRule, { description: "A pending rule will not count" })
  @Requires("availability:manage")
  declineAvailabilityRule(@Arg("staffId", () => ID) staffId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<AvailabilityRule> {
    return ctx.services.availability.decide(actorOf(ctx), staffId, id, "DECLINED");
  }

  @Query(() => [StaffDayAvailability], { description: "Each staff member's days: unavailable windows (approved rules and time off) and preferences" })
  @Requires(...READ)
  availability(@Args() args: ResolvedAvailabilityArgs, @Ctx() ctx: RequestContext): Promise<StaffDayAvailability[]> {
    return ctx.services.availability.resolved(actorOf(ctx), args);
  }

  @Query(() => AvailabilitySettings)
  @Requires(...READ)
  availabilitySettings(@Ctx() ctx: RequestContext): Promise<AvailabilitySettings> {
    return ctx.services.availability.settings(actorOf(ctx));
  }

  @Mutation(() => AvailabilitySettings)
  @Requires("availability:manage")
  updateAvailabilitySettings(@Arg("input") input: UpdateAvailabilitySettingsInput, @Ctx() ctx: RequestContext): Promise<AvailabilitySettings> {
    return ctx.services.availability.updateSettings(actorOf(ctx), input);
  }
}
