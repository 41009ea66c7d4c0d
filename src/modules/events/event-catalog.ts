import { invalidField } from "../../errors/app-error";

/**
 * Every event type the service records, with what its `data.object` is. The database's event
 * trigger (CreateEventsAndWebhooks migration) writes them; docs/events.md and the OpenAPI
 * document's `webhooks` are generated from or checked against this list.
 */
export const EVENT_CATALOG: Record<string, string> = {
  "shift.created": "A shift was created (by a manager or by clocking in); object: the shift",
  "shift.updated": "A shift changed; object: the shift, previousAttributes: the old values",
  "shift.deleted": "A shift was deleted; object: the shift as it was last read",
  "timeclock.clocked_in": "A worker clocked in; object: the open shift",
  "timeclock.clocked_out": "A worker clocked out; object: the closed shift",
  "timeclock.break_started": "A worker started a break; object: the shift with its breaks",
  "timeclock.break_ended": "A worker ended a break; object: the shift with its breaks",
  "timesheet.day_locked": "A location's day was locked for payroll; object: {locationId, day, lockedBy}",
  "timesheet.day_unlocked": "A locked day was unlocked; object: the lock as it was",
  "break_type.created": "A break type was created; object: the break type",
  "break_type.updated": "A break type changed",
  "break_type.deleted": "A break type was deleted",
  "schedule.published":
    "A location's schedule was published, once per publish; object: {locationId, startDate, endDate, addedEntryIds, changedEntryIds, removedEntryIds, openShiftIds}",
  "shift_template.created": "A shift template was created; object: the template",
  "shift_template.updated": "A shift template changed",
  "shift_template.deleted": "A shift template was deleted",
  "coverage.replaced": "A location's coverage requirements of a date range were replaced; object: {locationId, startDate, endDate, requirements (how many)}",
  "schedule.generation.completed":
    "A schedule generation ended (SUCCEEDED, FAILED or CANCELLED); object: {generationId, locationId, status, startDate, endDate, objective, draftIds, error}",
  "schedule_entry.created": "A schedule entry was published; object: the entry",
  "schedule_entry.updated": "A published schedule entry changed",
  "schedule_entry.deleted": "A published schedule entry was removed",
  "open_shift.created": "An open shift was created; object: the open shift",
  "open_shift.updated": "An open shift changed (including its publication)",
  "open_shift.deleted": "An open shift was deleted",
  "open_shift.fully_claimed": "An open shift has as many accepted workers as it needs; object: the open shift",
  "open_shift.claimed": "A worker claimed an open shift; object: the claim (preference)",
  "open_shift.retracted": "A worker withdrew a claim; object: the claim",
  "open_shift.assigned": "A claim was accepted and the worker assigned; object: the claim",
  "open_shift.claim_declined": "A manager declined a claim; object: the claim",
  "open_shift.claim_removed": "An accepted claim was removed with its schedule entry; object: the claim",
  "open_shift.claim_updated": "A claim changed otherwise; object: the claim",
  "time_off_request.created": "A time-off request was filed; object: the request",
  "time_off_request.updated": "A time-off request changed",
  "time_off_request.approved": "A time-off request was approved",
  "time_off_request.declined": "A time-off request was declined",
  "time_off_request.cancelled": "A time-off request was cancelled",
  "time_off_policy.created": "A time-off policy was created; object: the policy",
  "time_off_policy.updated": "A time-off policy changed",
  "time_off_policy.deleted": "A time-off policy was deleted",
  "time_off_balance.changed": "A worker's time-off balance changed; object: the ledger row (workerId, policyId, hours, reason)",
  "availability_rule.created": "An availability rule was added; object: the rule",
  "availability_rule.updated": "An availability rule changed",
  "availability_rule.approved": "A pending availability rule was approved",
  "availability_rule.declined": "A pending availability rule was declined",
  "availability_rule.pending": "A worker changed an approved rule, which waits for approval again",
  "availability_rule.deleted": "An availability rule was removed",
  "shift_request.created": "A worker offered a published entry (swap, cover or drop); object: the request",
  "shift_request.pending_approval": "A shift request was accepted and waits for a manager",
  "shift_request.approved": "A shift request was approved and its entries moved",
  "shift_request.declined": "The recipient declined a shift request",
  "shift_request.rejected": "A manager rejected a shift request",
  "shift_request.cancelled": "A shift request was withdrawn",
  "shift_request.expired": "A shift request's entry started, changed or went away before it was decided",
  "staff_member.created": "A staff member was created; object: the staff member",
  "staff_member.updated": "A staff member changed",
  "staff_member.deleted": "A staff member was deleted",
  "location.created": "A location was created; object: the location",
  "location.updated": "A location changed",
  "location.deleted": "A location was deleted",
  "role.created": "A role was created; object: the role",
  "role.updated": "A role changed",
  "role.deleted": "A role was deleted",
  "attendance.exception.created": "An attendance exception was found (at a punch, or by the detection job); object: the exception",
  "attendance.exception.updated": "An attendance exception was excused or resolved; object: the exception, previousAttributes: the old values",
  "timesheet.approved": "A staff member's timesheet of a pay period was approved; object: {staffId, periodStart, periodEnd, status, approvedBy, approvedAt}",
  "pay_period.closed": "A pay period was closed and its days locked; object: {periodStart, periodEnd, forced, reason, notApproved, closedBy}",
  "calendar_feed.created": "A calendar feed was made; object: the feed (never its secret)",
  "calendar_feed.replaced": "A calendar feed's secret URL was replaced",
  "calendar_feed.revoked": "A calendar feed was revoked",
  "webhook_endpoint.created": "A webhook endpoint was created; object: the endpoint (never its secret)",
  "webhook_endpoint.updated": "A webhook endpoint changed",
  "webhook_endpoint.deleted": "A webhook endpoint was deleted",
  "webhook_endpoint.disabled": "A webhook endpoint was disabled: by a manager, by a 410 answer, or after failing for 5 days",
};

/** The type of the ping `POST …/webhook-endpoints/{id}/test` sends; never recorded as an event. */
export const PING_EVENT_TYPE = "webhook_endpoint.test";

export const EVENT_TYPES = Object.keys(EVENT_CATALOG);

/** Refuses event types the catalog does not have, as a list filter or a subscription names them. */
export function requireKnownEventTypes(types: string[] | undefined): void {
  const unknown = (types ?? []).filter((t) => !Object.hasOwn(EVENT_CATALOG, t));
  if (unknown.length) throw invalidField("types", `Unknown event types: ${unknown.join(", ")} (the catalog is in docs/events.md)`);
}
