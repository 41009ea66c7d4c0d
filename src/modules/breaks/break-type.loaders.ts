import { actorOf } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { BreakType } from "./break-type.entity";

export const locationBreakTypesLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, BreakType[]>("locationBreakTypes", (ids) => ctx.services.breakTypes.ofLocations(actorOf(ctx).organizationId, ids));
