import { actorOf } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { byKeys } from "../../loaders/loaders";
import { AccessRole } from "./access-role.entity";

/** An organization has few access roles: one query reads them all. */
export const accessRoleLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, AccessRole | null>("accessRole", async (ids) => {
    const roles = await ctx.services.access.listAccessRoles(actorOf(ctx));
    return byKeys(ids, roles, (r) => r.id);
  });
