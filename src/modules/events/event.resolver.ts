import { Args, Ctx, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import { Page } from "../../common/pagination";
import type { RequestContext } from "../../graphql/context";
import { Event, EventArgs, EventConnection } from "./event.types";

@Resolver(() => Event)
export class EventResolver {
  @Query(() => EventConnection, { description: `The organization's events in commit order, kept 30 days; resume with after = the last sequence read` })
  @Requires("events:read")
  events(@Args() args: EventArgs, @Ctx() ctx: RequestContext): Promise<Page<Event>> {
    return ctx.services.events.list(actorOf(ctx), args);
  }
}
