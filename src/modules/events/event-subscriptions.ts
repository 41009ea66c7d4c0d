import { Actor, can, ownRecordsOnly, requirePermission } from "../../auth/actor";
import { Permission } from "../../auth/permissions";
import { forbidden } from "../../errors/app-error";
import { requireKnownEventTypes } from "./event-catalog";
import type { EventFilter } from "./event-stream";
import { Event } from "./event.types";

/** Where an open shift is, for claims (whose object names only the open shift). */
export type OpenShiftLocation = (openShiftId: string) => Promise<string | null>;

const objectOf = (event: Event) => event.data.object as Record<string, unknown>;
const isShiftEvent = (type: string) => type.startsWith("shift.") || type.startsWith("timeclock.");
const CLAIM_EVENTS = new Set([
  "open_shift.claimed",
  "open_shift.retracted",
  "open_shift.assigned",
  "open_shift.claim_declined",
  "open_shift.claim_removed",
  "open_shift.claim_updated",
]);

/**
 * Who gets which event live: the same rules as reading the resource. Each function checks the
 * subscriber's permission once, when the subscription starts, and answers the filter of its events.
 */
export const eventSubscriptions = {
  /** Every event (of the given types): for those who may read the event list. */
  events(actor: Actor, types: string[] | undefined): EventFilter {
    requirePermission(actor, "events:read");
    requireKnownEventTypes(types);
    const wanted = new Set(types ?? []);
    return (event) => !wanted.size || wanted.has(event.type);
  },

  /** Shifts and the time clock (of one location); a worker gets only their own. */
  shifts(actor: Actor, locationId: string | undefined): EventFilter {
    const own = ownRecordsOnly(actor, "timesheets:read", "timesheets:self");
    return (event) => {
      if (!isShiftEvent(event.type)) return false;
      const shift = objectOf(event);
      return (own === null || shift.employeeId === own) && (!locationId || shift.locationId === locationId);
    };
  },

  /** Open shifts and claims (of one location); a worker gets published open shifts and only their own claims. */
  openShifts(actor: Actor, locationId: string | undefined, locationOf: OpenShiftLocation): EventFilter {
    const own = ownRecordsOnly(actor, "schedules:read", "schedules:self");
    return async (event) => {
      if (!event.type.startsWith("open_shift.")) return false;
      const object = objectOf(event);
      if (CLAIM_EVENTS.has(event.type)) {
        if (own !== null && object.workerId !== own) return false;
        return !locationId || (await locationOf(String(object.openShiftId))) === locationId;
      }
      if (own !== null && !object.publishedAt) return false;
      return !locationId || object.locationId === locationId;
    };
  },

  /** The subscriber's own schedule: their published entries, claims and time-off requests. */
  mySchedule(actor: Actor): EventFilter {
    const me = actor.staffId;
    if (!me) throw forbidden("myScheduleChanged follows a staff member's own schedule: use a staff member's token");
    const may = (all: Permission, self: Permission) => can(actor, all) || can(actor, self);
    const entries = may("schedules:read", "schedules:self");
    const claims = can(actor, "openshifts:claim") || can(actor, "schedules:read");
    const requests = may("timeoff:read", "timeoff:self");
    if (!entries && !claims && !requests) throw forbidden('This subscription needs the "schedules:self" permission');
    return (event) => {
      const object = objectOf(event);
      if (object.workerId !== me) return false;
      if (event.type.startsWith("schedule_entry.")) return entries;
      if (CLAIM_EVENTS.has(event.type)) return claims;
      if (event.type.startsWith("time_off_request.")) return requests;
      return false;
    };
  },
};
