/** The events module's front door: what other modules may use of it. */
export { EVENT_RETENTION_DAYS } from "./event.service";
