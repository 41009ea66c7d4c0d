import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { ComplianceCheckInput, ComplianceCheckResult, ComplianceProfile, UpdateComplianceProfileInput } from "./compliance.types";

@Resolver(() => ComplianceProfile)
export class ComplianceResolver {
  @Query(() => ComplianceProfile, { description: "A location's labor rules: its preset and every figure in force" })
  @Requires("locations:read")
  complianceProfile(@Arg("locationId", () => ID) locationId: string, @Ctx() ctx: RequestContext): Promise<ComplianceProfile> {
    return ctx.services.compliance.profile(actorOf(ctx), locationId);
  }

  @Mutation(() => ComplianceProfile, { description: "Changes a location's preset and the figures it sets itself" })
  @Requires("locations:write")
  updateComplianceProfile(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("input") input: UpdateComplianceProfileInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ComplianceProfile> {
    return ctx.services.compliance.updateProfile(actorOf(ctx), locationId, input);
  }

  @Query(() => ComplianceCheckResult, { description: "The labor rules the location's schedule of the range breaks once its drafts are published" })
  @Requires("schedules:read")
  complianceCheck(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("input") input: ComplianceCheckInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ComplianceCheckResult> {
    return ctx.services.compliance.check(actorOf(ctx), locationId, input);
  }
}
