import { Actor, requireSelfOr } from "../auth/actor";
import { Permission } from "../auth/permissions";
import { invalidField, notFound } from "../errors/app-error";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** An id that is not even a UUID names nothing: answer as for an unknown one. */
export function requireUuid(value: string, what: string): string {
  if (!isUuid(value)) throw notFound(what);
  return value.toLowerCase();
}

/**
 * The staff member a body's `workerId` names, or the token's own: a worker acts only on themself
 * (`self`), a manager on anyone (`all`). A workerId that is not an id is 400, as every id in a body.
 */
export function actingStaffId(actor: Actor, requested: string | undefined | null, all: Permission, self: Permission): string {
  const id = requested ?? actor.staffId;
  if (!id) throw invalidField("workerId", "workerId is required for a token that does not act as a staff member");
  if (!isUuid(id)) throw invalidField("workerId", "workerId must be an id");
  requireSelfOr(actor, all, self, id.toLowerCase());
  return id.toLowerCase();
}

/** A filter id from a query string: a malformed one can match nothing, and says so. */
export function filterId(value: string, field: string): string;
export function filterId(value: string | undefined, field: string): string | undefined;
export function filterId(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isUuid(value)) throw invalidField(field, `${field} must be an id`);
  return value.toLowerCase();
}
