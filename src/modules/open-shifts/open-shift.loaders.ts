import { organizationLoader } from "../../graphql/request-loader";
import { OpenShiftPreference } from "./open-shift.entity";

export const openShiftPreferencesLoader = organizationLoader<string, OpenShiftPreference[]>("openShiftPreferences", (services, organizationId, ids) =>
  services.openShifts.preferencesOf(organizationId, ids),
);
