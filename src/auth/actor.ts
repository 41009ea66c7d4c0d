import { forbidden, unauthenticated } from "../errors/app-error";
import { Permission } from "./permissions";

/** Who is calling: an API key's holder, optionally acting as one staff member, inside one organization. */
export interface Actor {
  organizationId: string;
  apiKeyId: string;
  /** The staff member the token acts as; null for an organization-wide API-key token. */
  staffId: string | null;
  permissions: ReadonlySet<Permission>;
}

export function can(actor: Actor, permission: Permission): boolean {
  return actor.permissions.has(permission);
}

/** The caller, if signed in and holding at least one of `permissions` (any caller when none is given). */
export function requireAnyPermission(actor: Actor | null, permissions: Permission[]): Actor {
  if (!actor) throw unauthenticated();
  if (permissions.length === 0 || permissions.some((p) => actor.permissions.has(p))) return actor;
  throw forbidden(`This action needs the "${permissions.join('" or "')}" permission`);
}

export function requirePermission(actor: Actor, permission: Permission): void {
  if (!can(actor, permission)) throw forbidden(`This action needs the "${permission}" permission`);
}

/**
 * For records that belong to one staff member: the `all` permission reaches everyone's, the `self`
 * permission only the actor's own. Returns the staff id the actor is restricted to, or null.
 */
export function ownRecordsOnly(actor: Actor, all: Permission, self: Permission): string | null {
  if (can(actor, all)) return null;
  if (can(actor, self) && actor.staffId) return actor.staffId;
  throw forbidden(`This action needs the "${all}" permission`);
}

/** Throws unless the actor may act on the given staff member's records. */
export function requireSelfOr(actor: Actor, all: Permission, self: Permission, staffId: string): void {
  const only = ownRecordsOnly(actor, all, self);
  if (only !== null && only !== staffId) throw forbidden(`Acting on another staff member's records needs the "${all}" permission`);
}
