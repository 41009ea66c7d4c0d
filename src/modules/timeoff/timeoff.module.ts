import type { DomainModule } from "../module";
import { AccrualService } from "./accruals/accrual.service";
import { TimeOffPolicyResolver } from "./policies/policy.resolver";
import { TimeOffPolicyService } from "./policies/policy.service";
import { TimeOffRequestResolver } from "./requests/request.resolver";
import { TimeOffRequestService } from "./requests/request.service";
import { TimeOffSettingsResolver } from "./settings/settings.resolver";
import { seedTimeOff, TimeOffSettingsService } from "./settings/settings.service";
import { timeOffRoutes } from "./timeoff.routes";
import { LedgerEntryResolver, WorkerPolicyResolver } from "./balances/worker-policy.resolver";
import { WorkerPolicyService } from "./balances/worker-policy.service";

declare module "../../common/services" {
  interface Services {
    timeOffSettings: TimeOffSettingsService;
    workerPolicies: WorkerPolicyService;
    timeOffPolicies: TimeOffPolicyService;
    timeOffRequests: TimeOffRequestService;
    timeOffAccruals: AccrualService;
  }
}

/**
 * Time off: policies, balances and their ledger, accruals, requests and approvals, settings. A new
 * organization starts with the default policy types and settings; a new or changed staff member
 * gets the default policies.
 */
export const timeOffModule: DomainModule = {
  services: (deps, built) => {
    const timeOffSettings = new TimeOffSettingsService(deps);
    const workerPolicies = new WorkerPolicyService(deps, timeOffSettings);
    built.organizations.seedWith(seedTimeOff);
    built.staff.listen(workerPolicies.onStaffChanged);
    return {
      timeOffSettings,
      workerPolicies,
      timeOffPolicies: new TimeOffPolicyService(deps, workerPolicies, timeOffSettings),
      timeOffRequests: new TimeOffRequestService(deps, workerPolicies, timeOffSettings),
      timeOffAccruals: new AccrualService(deps, workerPolicies),
    };
  },
  resolvers: [TimeOffPolicyResolver, WorkerPolicyResolver, LedgerEntryResolver, TimeOffRequestResolver, TimeOffSettingsResolver],
  restRoutes: timeOffRoutes,
  jobs: (services) => [services.timeOffAccruals.job],
};
