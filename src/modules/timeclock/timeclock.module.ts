import type { DomainModule } from "../module";
import { TimeClockResolver } from "./timeclock.resolver";
import { timeClockRoutes } from "./timeclock.routes";
import { TimeClockService } from "./timeclock.service";

declare module "../../common/services" {
  interface Services {
    timeClock: TimeClockService;
  }
}

/** Clocking in and out and taking breaks, written as shifts. */
export const timeClockModule: DomainModule = {
  services: (deps, built) => ({ timeClock: new TimeClockService(deps, built.shifts, built.punchChecks) }),
  resolvers: [TimeClockResolver],
  restRoutes: timeClockRoutes,
};
