import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { CoverageArgs, CoverageLine, ReplaceCoverageInput } from "./coverage.inputs";

@Resolver()
export class CoverageResolver {
  @Query(() => [CoverageLine], { description: "A location's coverage requirements of a date range, each with the people planned on it and those missing" })
  @Requires("schedules:read")
  coverage(@Args() args: CoverageArgs, @Ctx() ctx: RequestContext): Promise<CoverageLine[]> {
    return ctx.services.coverage.get(actorOf(ctx), args);
  }

  @Mutation(() => [CoverageLine], { description: "Replaces the coverage requirements of a date range" })
  @Requires("schedules:write")
  replaceCoverage(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("input") input: ReplaceCoverageInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CoverageLine[]> {
    return ctx.services.coverage.replace(actorOf(ctx), locationId, input);
  }
}
