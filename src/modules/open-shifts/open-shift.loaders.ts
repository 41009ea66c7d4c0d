import { actorOf } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { OpenShiftPreference } from "./open-shift.entity";

export const openShiftPreferencesLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, OpenShiftPreference[]>("openShiftPreferences", (ids) => ctx.services.openShifts.preferencesOf(actorOf(ctx).organizationId, ids));
