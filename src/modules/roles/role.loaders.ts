import { actorOf } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { Role } from "./role.entity";

export const roleLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, Role | null>("role", (ids) => ctx.services.roles.records.byIds(actorOf(ctx).organizationId, ids));
