import type { DomainModule } from "../../modules/module";
import { ShiftRequestResolver } from "./shift-request.resolver";
import { shiftRequestRoutes } from "./shift-request.routes";
import { ShiftRequestService } from "./shift-request.service";

declare module "../../common/services" {
  interface Services {
    shiftRequests: ShiftRequestService;
  }
}

/** Swaps, covers and drops of published entries, with eligibility, premiums and a manager's say. */
export const shiftRequestsModule: DomainModule = {
  services: (deps) => ({ shiftRequests: new ShiftRequestService(deps) }),
  resolvers: [ShiftRequestResolver],
  restRoutes: shiftRequestRoutes,
  jobs: (services) => [{ name: "expire-shift-requests", intervalMs: 60_000, run: () => services.shiftRequests.expireAll() }],
};
