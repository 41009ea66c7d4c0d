import type { DomainModule } from "../module";
import { StaffResolver } from "./staff.resolver";
import { staffRoutes } from "./staff.routes";
import { StaffService } from "./staff.service";

declare module "../../common/services" {
  interface Services {
    staff: StaffService;
  }
}

/** Staff members, their roles and locations. */
export const staffModule: DomainModule = {
  services: (deps) => ({ staff: new StaffService(deps) }),
  resolvers: [StaffResolver],
  restRoutes: staffRoutes,
};
