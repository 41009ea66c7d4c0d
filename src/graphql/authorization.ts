import { AuthChecker, Authorized, getMetadataStorage } from "type-graphql";
import { Actor, requireAnyPermission } from "../auth/actor";
import { Permission } from "../auth/permissions";
import { unauthenticated } from "../errors/app-error";
import type { RequestContext } from "./context";

/**
 * Guards a query, mutation or field: the caller must be signed in and hold at least one of the
 * given permissions (any signed-in caller when none is given).
 */
export const Requires = (...permissions: Permission[]) => Authorized<Permission>(...permissions);

/** The guard of `Requires`; a REST call's root field was already checked by the REST shim, before its body was read. */
export const authChecker: AuthChecker<RequestContext, Permission> = ({ context, info }, permissions) => {
  if (info.path.prev === undefined && context.checkedRootField === info.fieldName) return true;
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
