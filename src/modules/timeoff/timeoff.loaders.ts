import { requestLoader } from "../../graphql/request-loader";
import { TimeOffPolicyType } from "./policies/policy-type.entity";
import { TimeOffPolicy } from "./policies/policy.entity";
import { Balance } from "./balances/worker-policy.service";
import { WorkerPolicy } from "./balances/worker-policy.entity";

/** Removed policies included: a declined or cancelled request, and the ledger, still name theirs. */
export const policyLoader = requestLoader<string, TimeOffPolicy | null>("timeOffPolicy", (services, actor, ids) =>
  services.timeOffPolicies.byIdsWithRemoved(actor.organizationId, ids),
);

export const policyTypeLoader = requestLoader<string, TimeOffPolicyType | null>("timeOffPolicyType", (services, actor, ids) =>
  services.timeOffPolicies.types.byIds(actor.organizationId, ids),
);

export const assignedStaffCountLoader = requestLoader<string, number>("timeOffAssignedStaffCount", (services, actor, ids) =>
  services.workerPolicies.assignedCounts(actor.organizationId, ids),
);

/** Balances of worker policies; null where the organization hides balances from the caller. */
export const balanceLoader = requestLoader<string, Balance | null>("timeOffBalance", (services, actor, ids) =>
  services.workerPolicies.visibleBalances(actor, ids),
);

/** Keyed `policyId:staffId`. */
export const workerPolicyByPairLoader = requestLoader<string, WorkerPolicy | null>("workerPolicyByPair", (services, actor, keys) =>
  services.workerPolicies.byPolicyAndStaffMember(actor.organizationId, keys),
);
