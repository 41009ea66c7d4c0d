import { ServiceDeps } from "../../app/deps";
import { AccrualService } from "./accrual.service";
import { TimeOffPolicyResolver } from "./policy.resolver";
import { TimeOffPolicyService } from "./policy.service";
import { TimeOffRequestResolver } from "./request.resolver";
import { TimeOffRequestService } from "./request.service";
import { TimeOffSettingsResolver } from "./settings.resolver";
import { TimeOffSettingsService } from "./settings.service";
import { timeOffRoutes } from "./timeoff.routes";
import { LedgerEntryResolver, WorkerPolicyResolver } from "./worker-policy.resolver";
import { WorkerPolicyService } from "./worker-policy.service";

export { seedTimeOff } from "./settings.service";

/** Time off: policies, balances and their ledger, accruals, requests and approvals, settings. */
export function createTimeOffServices(deps: ServiceDeps) {
  const timeOffSettings = new TimeOffSettingsService(deps);
  const workerPolicies = new WorkerPolicyService(deps, timeOffSettings);
  return {
    timeOffSettings,
    workerPolicies,
    timeOffPolicies: new TimeOffPolicyService(deps, workerPolicies, timeOffSettings),
    timeOffRequests: new TimeOffRequestService(deps, workerPolicies, timeOffSettings),
    timeOffAccruals: new AccrualService(deps, workerPolicies),
  };
}

export const timeOffResolvers = [TimeOffPolicyResolver, WorkerPolicyResolver, LedgerEntryResolver, TimeOffRequestResolver, TimeOffSettingsResolver] as const;

export const timeOffRestRoutes = timeOffRoutes;
