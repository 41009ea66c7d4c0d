import { organizationLoader, requestLoader } from "../../graphql/request-loader";
import type { RequestContext } from "../../graphql/context";
import { TimeOffPolicyType } from "./policies/policy-type.entity";
import { TimeOffPolicy } from "./policies/policy.entity";
import { Balance } from "./balances/worker-policy.service";
import { WorkerPolicy } from "./balances/worker-policy.entity";

/** Removed policies included: a declined or cancelled request, and the ledger, still name theirs. */
export const policyLoader = organizationLoader<string, TimeOffPolicy | null>("timeOffPolicy", (services, organizationId, ids) =>
  services.timeOffPolicies.byIdsWithRemoved(organizationId, ids),
);

export const policyTypeLoader = organizationLoader<string, TimeOffPolicyType | null>("timeOffPolicyType", (services, organizationId, ids) =>
  services.timeOffPolicies.types.byIds(organizationId, ids),
);

export const assignedStaffCountLoader = organizationLoader<string, number>("timeOffAssignedStaffCount", (services, organizationId, ids) =>
  services.workerPolicies.assignedCounts(organizationId, ids),
);

const balancesLoader = organizationLoader<string, Balance>("timeOffBalance", (services, organizationId, ids) =>
  services.workerPolicies.balancesOf(organizationId, ids),
);

/** Whether the caller may see balances, asked once per request whatever the number of balances (the key is ignored). */
const balancesShownLoader = requestLoader<"", boolean>("timeOffBalancesShown", async (services, actor, keys) => {
  const shown = await services.workerPolicies.showsBalancesTo(actor);
  return keys.map(() => shown);
});

/** A worker policy's balance; null where the organization hides balances from the caller. */
export async function visibleBalance(ctx: RequestContext, workerPolicyId: string): Promise<Balance | null> {
  return (await balancesShownLoader(ctx).load("")) ? balancesLoader(ctx).load(workerPolicyId) : null;
}

/** Keyed `policyId:staffId`. */
export const workerPolicyByPairLoader = organizationLoader<string, WorkerPolicy | null>("workerPolicyByPair", (services, organizationId, keys) =>
  services.workerPolicies.byPolicyAndStaffMember(organizationId, keys),
);
