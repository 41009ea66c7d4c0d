import { ServiceDeps } from "../../app/deps";
import { ComplianceResolver } from "./compliance.resolver";
import { complianceRoutes } from "./compliance.routes";
import { ComplianceService } from "./compliance.service";

/** Labor rules per location and the check of planned schedules against them. */
export function createComplianceServices(deps: ServiceDeps) {
  return { compliance: new ComplianceService(deps) };
}

export const complianceResolvers = [ComplianceResolver] as const;

export const complianceRestRoutes = complianceRoutes;
