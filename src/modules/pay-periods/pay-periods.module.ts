import type { DomainModule } from "../module";
import { PayPeriodResolver } from "./pay-period.resolver";
import { payPeriodRoutes } from "./pay-period.routes";
import { PayPeriodService } from "./pay-period.service";

declare module "../../common/services" {
  interface Services {
    payPeriods: PayPeriodService;
  }
}

/** Pay periods and the sign-off of each person's timesheet in them. */
export const payPeriodsModule: DomainModule = {
  services: (deps, built) => ({ payPeriods: new PayPeriodService(deps, built.shifts, built.dayLocks) }),
  resolvers: [PayPeriodResolver],
  restRoutes: payPeriodRoutes,
};
