import type { DomainModule } from "../module";
import { OrganizationResolver } from "./organization.resolver";
import { organizationRoutes } from "./organization.routes";
import { OrganizationService } from "./organization.service";

declare module "../../common/services" {
  interface Services {
    organizations: OrganizationService;
  }
}

/** Organizations: created with the platform key, each with its first access roles and API key. */
export const organizationsModule: DomainModule = {
  services: (deps, built) => ({ organizations: new OrganizationService(deps, deps.platform, built.access) }),
  resolvers: [OrganizationResolver],
  restRoutes: organizationRoutes,
};
