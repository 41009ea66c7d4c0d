import { Arg, Args, ArgsType, Ctx, Field, ID, Mutation, Query, Resolver, Root, Subscription } from "type-graphql";
import { requirePermission } from "../../auth/actor";
import { badRequest } from "../../errors/app-error";
import { actorOf, Requires } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { Event } from "../../modules/events";
import { ScheduleGeneration } from "./generation.entity";
import { GenerateScheduleInput } from "./generation.inputs";

@ArgsType()
export class GenerationSubscriptionArgs {
  @Field(() => ID, { nullable: true, description: "Only this location's (all when absent)" })
  locationId?: string;
}

@Resolver(() => ScheduleGeneration)
export class ScheduleGenerationResolver {
  @Mutation(() => ScheduleGeneration, {
    description: "Queues the generation of drafts for a location's date range; poll scheduleGeneration or subscribe to scheduleGenerationCompleted",
  })
  @Requires("schedules:write")
  generateSchedule(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("input") input: GenerateScheduleInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ScheduleGeneration> {
    return ctx.services.scheduleGenerations.request(actorOf(ctx), locationId, input);
  }

  @Query(() => ScheduleGeneration)
  @Requires("schedules:read")
  scheduleGeneration(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<ScheduleGeneration> {
    return ctx.services.scheduleGenerations.get(actorOf(ctx), id);
  }

  @Mutation(() => ScheduleGeneration, { description: "Cancels a queued or running generation: it writes nothing" })
  @Requires("schedules:write")
  cancelScheduleGeneration(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<ScheduleGeneration> {
    return ctx.services.scheduleGenerations.cancel(actorOf(ctx), id);
  }

  @Subscription(() => Event, {
    description: `Each schedule.generation.completed event (of one location or all), as it happens: needs "schedules:read"`,
    subscribe: ({ args, context }: { args: GenerationSubscriptionArgs; context: RequestContext }) => {
      const actor = actorOf(context);
      requirePermission(actor, "schedules:read");
      if (!context.eventStream) throw badRequest("Subscriptions run over a WebSocket (graphql-ws) at /graphql");
      const locationId = args.locationId?.toLowerCase();
      return context.eventStream.subscribe(
        actor.organizationId,
        (event: Event) =>
          event.type === "schedule.generation.completed" && (!locationId || (event.data.object as { locationId?: string }).locationId === locationId),
      );
    },
  })
  scheduleGenerationCompleted(@Root() event: Event, @Args() _args: GenerationSubscriptionArgs): Event {
    return event;
  }
}
