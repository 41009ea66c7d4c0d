import type { DomainModule } from "../module";
import { RoleResolver } from "./role.resolver";
import { roleRoutes } from "./role.routes";
import { RoleService } from "./role.service";

declare module "../../common/services" {
  interface Services {
    roles: RoleService;
  }
}

/** Job roles (cashier, nurse, …) with their hourly wages. */
export const rolesModule: DomainModule = {
  services: (deps) => ({ roles: new RoleService(deps) }),
  resolvers: [RoleResolver],
  restRoutes: roleRoutes,
};
