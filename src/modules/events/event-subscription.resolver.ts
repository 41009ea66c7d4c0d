import { ArgsType, Field, ID, Resolver, Root, Subscription, Args } from "type-graphql";
import { ArrayMaxSize, IsOptional } from "../../common/input-checks";
import { actorOf } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { badRequest } from "../../errors/app-error";
import type { EventFilter } from "./event-stream";
import { eventSubscriptions } from "./event-subscriptions";
import { Event } from "./event.types";

@ArgsType()
export class EventSubscriptionArgs {
  @Field(() => [String], { nullable: true, description: "Only events of these types (all when absent)" })
  @IsOptional()
  @ArrayMaxSize(100)
  types?: string[];
}

@ArgsType()
export class LocationSubscriptionArgs {
  @Field(() => ID, { nullable: true, description: "Only this location's (all the subscriber may see when absent)" })
  locationId?: string;
}

interface SubscribeData<A> {
  args: A;
  context: RequestContext;
}

/** The committed events a subscriber may see from now on, over the WebSocket the subscription came on. */
function live(context: RequestContext, filter: (ctx: RequestContext) => EventFilter): AsyncIterable<Event> {
  const stream = context.eventStream;
  if (!stream) throw badRequest("Subscriptions run over a WebSocket (graphql-ws) at /graphql");
  const accept = filter(context);
  return stream.subscribe(actorOf(context).organizationId, accept);
}

/** The location a subscription names, which must be one of the caller's organization (else an error, as a read would answer). */
async function knownLocation(context: RequestContext, locationId: string | null | undefined): Promise<string | undefined> {
  if (locationId === undefined || locationId === null) return undefined;
  return (await context.services.locations.get(actorOf(context), locationId)).id;
}

/** Live events for apps: each subscription answers the event as the event list does (docs/events.md). */
@Resolver()
export class EventSubscriptionResolver {
  @Subscription(() => Event, {
    description: `Every committed event of the organization (of the given types), as it happens: needs "events:read"`,
    subscribe: ({ args, context }: SubscribeData<EventSubscriptionArgs>) => live(context, (ctx) => eventSubscriptions.events(actorOf(ctx), args.types)),
  })
  events(@Root() event: Event, @Args() _args: EventSubscriptionArgs): Event {
    return event;
  }

  @Subscription(() => Event, {
    description: "Shift and time-clock events (shift.*, timeclock.*), of one location or all; a worker gets only their own shifts",
    subscribe: async ({ args, context }: SubscribeData<LocationSubscriptionArgs>) => {
      const locationId = await knownLocation(context, args.locationId);
      return live(context, (ctx) => eventSubscriptions.shifts(actorOf(ctx), locationId));
    },
  })
  shiftChanged(@Root() event: Event, @Args() _args: LocationSubscriptionArgs): Event {
    return event;
  }

  @Subscription(() => Event, {
    description: "Open shift and claim events (open_shift.*), of one location or all; a worker gets published open shifts and only their own claims",
    subscribe: async ({ args, context }: SubscribeData<LocationSubscriptionArgs>) => {
      const locationId = await knownLocation(context, args.locationId);
      return live(context, (ctx) =>
        eventSubscriptions.openShifts(actorOf(ctx), locationId, (id) => ctx.services.openShifts.locationOf(actorOf(ctx).organizationId, id)),
      );
    },
  })
  openShiftChanged(@Root() event: Event, @Args() _args: LocationSubscriptionArgs): Event {
    return event;
  }

  @Subscription(() => Event, {
    description: "The subscriber's own schedule: their published schedule entries, open shift claims and time-off requests (a staff member's token)",
    subscribe: ({ context }: SubscribeData<Record<string, never>>) => live(context, (ctx) => eventSubscriptions.mySchedule(actorOf(ctx))),
  })
  myScheduleChanged(@Root() event: Event): Event {
    return event;
  }
}
