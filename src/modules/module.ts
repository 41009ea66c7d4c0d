import type { ScheduledJob, ServiceDeps, Services } from "../common/services";
import type { RawRestRoute } from "../rest/raw-routes";
import type { RestRoute } from "../rest/route";
import type { PlatformSecrets } from "./organizations/platform-secrets";

/** What the composition root builds the modules' services with. */
export interface ModuleDeps extends ServiceDeps {
  platform: PlatformSecrets;
}

/**
 * What each domain folder hands the composition root (`src/app/modules.ts`) through its
 * `<domain>.module.ts`: its services, its GraphQL resolvers, its REST paths and its background jobs.
 * The module also adds its services' types to `Services` (src/common/services.ts).
 */
export interface DomainModule {
  /** Builds the module's services; `built` already holds those of the modules listed before it. */
  services(deps: ModuleDeps, built: Services): Partial<Services>;
  resolvers: Function[];
  restRoutes: RestRoute[];
  /** Paths answered by handlers of their own (streamed downloads). */
  rawRestRoutes?: RawRestRoute[];
  jobs?(services: Services): ScheduledJob[];
}
