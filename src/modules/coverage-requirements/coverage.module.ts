import type { DomainModule } from "../module";
import { CoverageResolver } from "./coverage.resolver";
import { coverageRoutes } from "./coverage.routes";
import { CoverageService } from "./coverage.service";

declare module "../../common/services" {
  interface Services {
    coverage: CoverageService;
  }
}

/** Coverage: how many people each shift template needs per day, against the planned schedule. */
export const coverageModule: DomainModule = {
  services: (deps) => ({ coverage: new CoverageService(deps) }),
  resolvers: [CoverageResolver],
  restRoutes: coverageRoutes,
};
