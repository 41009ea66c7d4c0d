/** The pay-periods domain's front door. */
export { payPeriodsModule } from "./pay-periods.module";
export type { PayPeriodService } from "./pay-period.service";
