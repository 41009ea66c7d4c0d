import { Arg, Ctx, ID, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../../graphql/authorization";
import type { RequestContext } from "../../../graphql/context";
import { EligibilityInput, StaffEligibilityView } from "./eligibility.graphql";

@Resolver(() => StaffEligibilityView)
export class EligibilityResolver {
  @Query(() => [StaffEligibilityView], {
    description: "Every active staff member (or those named) for a time range and role: eligible, the reasons, warnings and premiums",
  })
  @Requires("schedules:read")
  eligibility(@Arg("input") input: EligibilityInput, @Ctx() ctx: RequestContext): Promise<StaffEligibilityView[]> {
    return ctx.services.eligibility.forRange(actorOf(ctx), input);
  }

  @Query(() => [StaffEligibilityView], { description: "Every active staff member for an open shift" })
  @Requires("schedules:read")
  openShiftEligibleStaff(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("id", () => ID) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<StaffEligibilityView[]> {
    return ctx.services.eligibility.forShift(actorOf(ctx), locationId, id, "open shift");
  }

  @Query(() => [StaffEligibilityView], { description: "Every active staff member for a published schedule entry (who could take it instead)" })
  @Requires("schedules:read")
  scheduleEntryEligibleStaff(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("id", () => ID) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<StaffEligibilityView[]> {
    return ctx.services.eligibility.forShift(actorOf(ctx), locationId, id, "entry");
  }
}
