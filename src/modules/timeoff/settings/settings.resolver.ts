import { Arg, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../../graphql/authorization";
import type { RequestContext } from "../../../graphql/context";
import { UpdateTimeOffSettingsInput } from "./settings.graphql";
import { TimeOffSettings } from "./settings.entity";

@Resolver(() => TimeOffSettings)
export class TimeOffSettingsResolver {
  @Query(() => TimeOffSettings)
  @Requires("timeoff:self", "timeoff:read", "timeoff:manage")
  timeOffSettings(@Ctx() ctx: RequestContext): Promise<TimeOffSettings> {
    return ctx.services.timeOffSettings.get(actorOf(ctx));
  }

  @Mutation(() => TimeOffSettings)
  @Requires("timeoff:manage")
  updateTimeOffSettings(@Arg("input") input: UpdateTimeOffSettingsInput, @Ctx() ctx: RequestContext): Promise<TimeOffSettings> {
    return ctx.services.timeOffSettings.update(actorOf(ctx), input);
  }
}
