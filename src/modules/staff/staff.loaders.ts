import { actorOf } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { StaffMember, StaffRole } from "./staff-member.entity";

export const staffLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, StaffMember | null>("staffMember", (ids) => ctx.services.staff.records.byIds(actorOf(ctx).organizationId, ids));

export const staffRolesLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, StaffRole[]>("staffRoles", (ids) => ctx.services.staff.rolesOf(actorOf(ctx).organizationId, ids));

export const staffLocationIdsLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, string[]>("staffLocationIds", (ids) => ctx.services.staff.locationIdsOf(actorOf(ctx).organizationId, ids));
