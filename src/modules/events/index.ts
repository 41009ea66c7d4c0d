/** The front door of events: what other modules use to record theirs. */
export { eventsModule } from "./events.module";
export { recordEvent } from "./event.store";
export { Event } from "./event.types";
export type { EventFilter } from "./event-stream";
