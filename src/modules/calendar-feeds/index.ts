export { calendarFeedsModule } from "./calendar-feeds.module";
export { CalendarFeedService, FEED_PATH } from "./calendar-feed.service";
export type { RenderedFeed } from "./calendar-feed.service";
