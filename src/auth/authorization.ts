import { AuthChecker, Authorized } from "type-graphql";
import type { RequestContext } from "../graphql/context";
import { forbidden, unauthenticated } from "../errors/app-error";
import { Actor } from "./actor";
import { Permission } from "./permissions";

/**
 * Guards a query, mutation or field: the caller must be signed in and hold at least one of the
 * given permissions (any signed-in caller when none is given).
 */
export const Requires = (...permissions: Permission[]) => Authorized<Permission>(...permissions);

export const authChecker: AuthChecker<RequestContext, Permission> = ({ context }, permissions) => {
  const actor = context.actor;
  if (!actor) throw unauthenticated();
  if (permissions.length === 0 || permissions.some((p) => actor.permissions.has(p))) return true;
  throw forbidden(`This action needs the "${permissions.join('" or "')}" permission`);
};

/** The caller of a guarded resolver (the guard has already refused anonymous calls). */
export function actorOf(context: RequestContext): Actor {
  if (!context.actor) throw unauthenticated();
  return context.actor;
}
