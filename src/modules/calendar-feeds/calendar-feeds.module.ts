import type { DomainModule } from "../module";
import { CalendarFeedResolver } from "./calendar-feed.resolver";
import { calendarFeedRoutes } from "./calendar-feed.routes";
import { CalendarFeedService } from "./calendar-feed.service";

declare module "../../common/services" {
  interface Services {
    calendarFeeds: CalendarFeedService;
  }
}

/** Calendar feeds: a staff member's or a location's schedule and time off, for calendar programs. */
export const calendarFeedsModule: DomainModule = {
  services: (deps) => ({ calendarFeeds: new CalendarFeedService(deps) }),
  resolvers: [CalendarFeedResolver],
  restRoutes: calendarFeedRoutes,
};
