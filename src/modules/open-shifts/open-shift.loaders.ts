import { requestLoader } from "../../graphql/request-loader";
import { OpenShiftPreference } from "./open-shift.entity";

export const openShiftPreferencesLoader = requestLoader<string, OpenShiftPreference[]>("openShiftPreferences", (services, actor, ids) =>
  services.openShifts.preferencesOf(actor.organizationId, ids),
);
