import { actorOf } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { Location } from "./location.entity";

export const locationLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, Location | null>("location", (ids) => ctx.services.locations.records.byIds(actorOf(ctx).organizationId, ids));
