import type { DomainModule } from "../module";
import { ComplianceResolver } from "./compliance.resolver";
import { complianceRoutes } from "./compliance.routes";
import { ComplianceService } from "./compliance.service";

declare module "../../common/services" {
  interface Services {
    compliance: ComplianceService;
  }
}

/** Labor rules per location and the check of planned schedules against them. */
export const complianceModule: DomainModule = {
  services: (deps) => ({ compliance: new ComplianceService(deps) }),
  resolvers: [ComplianceResolver],
  restRoutes: complianceRoutes,
};
