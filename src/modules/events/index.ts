/** The front door of the event log, its feed, stream and catalog: the only file other modules import. */
export { EVENT_CATALOG, PING_EVENT_TYPE } from "./event-catalog";
export { EventFeed } from "./event-feed";
export { RESOURCE_PATHS, resourceKey, resourceOf } from "./event-resources";
export type { ResourceRead } from "./event-resources";
export { EventStream } from "./event-stream";
export { EVENT_RETENTION_DAYS, EventService, recordEvent } from "./event.service";
export { keepEventResources, lastCommittedResources, pendingEvents } from "./pending-events";
export type { EventResource, PendingEvent } from "./pending-events";
export { eventsModule } from "./events.module";
export { Event } from "./event.types";
export type { EventFilter } from "./event-stream";
export type { CommittedEvent } from "./event-feed";
