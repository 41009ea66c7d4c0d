import type { DomainModule } from "../module";
import { OpenShiftPreferenceResolver, OpenShiftResolver } from "./open-shift.resolver";
import { openShiftRoutes } from "./open-shift.routes";
import { OpenShiftService } from "./open-shift.service";

declare module "../../common/services" {
  interface Services {
    openShifts: OpenShiftService;
  }
}

/** Open shifts posted for workers to claim, and workers' preferences for them. */
export const openShiftsModule: DomainModule = {
  services: (deps) => ({ openShifts: new OpenShiftService(deps) }),
  resolvers: [OpenShiftResolver, OpenShiftPreferenceResolver],
  restRoutes: openShiftRoutes,
};
