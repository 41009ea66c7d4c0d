import type { DomainModule } from "../module";
import { BreakTypeResolver, LocationBreakTypesResolver } from "./break-type.resolver";
import { breakTypeRoutes } from "./break-type.routes";
import { BreakTypeService } from "./break-type.service";

declare module "../../common/services" {
  interface Services {
    breakTypes: BreakTypeService;
  }
}

/** Break types per location (paid or not, mandatory, how often and how long). */
export const breaksModule: DomainModule = {
  services: (deps) => ({ breakTypes: new BreakTypeService(deps) }),
  resolvers: [BreakTypeResolver, LocationBreakTypesResolver],
  restRoutes: breakTypeRoutes,
};
