import { Arg, Ctx, ID, Mutation, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { CalendarFeedLink } from "./calendar-feed.types";

@Resolver()
export class CalendarFeedResolver {
  @Mutation(() => CalendarFeedLink, { description: "Makes a staff member's calendar feed, or replaces its secret URL" })
  @Requires("calendar:self", "calendar:manage")
  createStaffCalendarFeed(@Arg("staffId", () => ID) staffId: string, @Ctx() ctx: RequestContext): Promise<CalendarFeedLink> {
    return ctx.services.calendarFeeds.create(actorOf(ctx), { staffId });
  }

  @Mutation(() => Boolean, { description: "Revokes a staff member's calendar feed" })
  @Requires("calendar:self", "calendar:manage")
  revokeStaffCalendarFeed(@Arg("staffId", () => ID) staffId: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.calendarFeeds.revoke(actorOf(ctx), { staffId });
  }

  @Mutation(() => CalendarFeedLink, { description: "Makes a location's calendar feed, or replaces its secret URL" })
  @Requires("calendar:manage")
  createLocationCalendarFeed(@Arg("locationId", () => ID) locationId: string, @Ctx() ctx: RequestContext): Promise<CalendarFeedLink> {
    return ctx.services.calendarFeeds.create(actorOf(ctx), { locationId });
  }

  @Mutation(() => Boolean, { description: "Revokes a location's calendar feed" })
  @Requires("calendar:manage")
  revokeLocationCalendarFeed(@Arg("locationId", () => ID) locationId: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.calendarFeeds.revoke(actorOf(ctx), { locationId });
  }
}
