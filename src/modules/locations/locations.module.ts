import type { DomainModule } from "../module";
import { LocationResolver } from "./location.resolver";
import { locationRoutes } from "./location.routes";
import { LocationService } from "./location.service";

declare module "../../common/services" {
  interface Services {
    locations: LocationService;
  }
}

/** The organization's locations (sites), each with its time zone. */
export const locationsModule: DomainModule = {
  services: (deps) => ({ locations: new LocationService(deps) }),
  resolvers: [LocationResolver],
  restRoutes: locationRoutes,
};
