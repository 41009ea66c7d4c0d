import { AuthChecker, Authorized, getMetadataStorage } from "type-graphql";
import type { RequestContext } from "../graphql/context";
import { forbidden, unauthenticated } from "../errors/app-error";
import { Actor } from "./actor";
import { Permission } from "./permissions";

/**
 * Guards a query, mutation or field: the caller must be signed in and hold at least one of the
 * given permissions (any signed-in caller when none is given).
 */
export const Requires = (...permissions: Permission[]) => Authorized<Permission>(...permissions);

/** The caller, if signed in and holding at least one of `permissions` (any caller when none is given). */
export function requireAnyPermission(actor: Actor | null, permissions: Permission[]): Actor {
  if (!actor) throw unauthenticated();
  if (permissions.length === 0 || permissions.some((p) => actor.permissions.has(p))) return actor;
  throw forbidden(`This action needs the "${permissions.join('" or "')}" permission`);
}

export const authChecker: AuthChecker<RequestContext, Permission> = ({ context }, permissions) => {
  requireAnyPermission(context.actor, permissions);
  return true;
};

/** The caller of a guarded resolver (the guard has already refused anonymous calls). */
export function actorOf(context: RequestContext): Actor {
  if (!context.actor) throw unauthenticated();
  return context.actor;
}

/**
 * The permissions a query or mutation field is guarded with (any one suffices), read from the
 * same decorators the guard uses; undefined for an unguarded field.
 */
export function permissionsOf(operation: "query" | "mutation", field: string): Permission[] | undefined {
  const storage = getMetadataStorage();
  const resolver = (operation === "query" ? storage.queries : storage.mutations).find((r) => r.schemaName === field);
  if (!resolver) return undefined;
  const guard = storage.authorizedFields.find((a) => a.target === resolver.target && a.fieldName === resolver.methodName);
  return guard ? (guard.roles as Permission[]) : undefined;
}
