import { actorOf } from "../../graphql/authorization";
import { can } from "../../auth/actor";
import type { RequestContext } from "../../graphql/context";
import { TimeOffPolicyType } from "./policy-type.entity";
import { TimeOffPolicy } from "./policy.entity";
import { TimeOffSettings } from "./settings.entity";
import { Balance } from "./worker-policy.service";
import { WorkerPolicy } from "./worker-policy.entity";

const org = (ctx: RequestContext) => actorOf(ctx).organizationId;

export const policyLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, TimeOffPolicy | null>("timeOffPolicy", (ids) => ctx.services.timeOffPolicies.records.byIds(org(ctx), ids));

export const policyTypeLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, TimeOffPolicyType | null>("timeOffPolicyType", (ids) => ctx.services.timeOffPolicies.types.byIds(org(ctx), ids));

export const assignedStaffCountLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, number>("timeOffAssignedStaffCount", (ids) => ctx.services.workerPolicies.assignedCounts(org(ctx), ids));

export const balanceLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, Balance>("timeOffBalance", (ids) => ctx.services.workerPolicies.balances(ctx.services.workerPolicies.records.repo.manager, org(ctx), ids));

/** Keyed `policyId:workerId`. */
export const workerPolicyByPairLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, WorkerPolicy | null>("workerPolicyByPair", (keys) => ctx.services.workerPolicies.byPolicyAndWorker(org(ctx), keys));

const settingsLoader = (ctx: RequestContext) =>
  ctx.loaders.get<string, TimeOffSettings>("timeOffSettings", (orgs) => Promise.all(orgs.map((o) => ctx.services.timeOffSettings.of(o))));

/** Balances are shown unless the organization hides them from workers and the caller only sees their own. */
export async function balancesVisible(ctx: RequestContext): Promise<boolean> {
  const actor = actorOf(ctx);
  if (can(actor, "timeoff:read")) return true;
  return (await settingsLoader(ctx).load(actor.organizationId)).workersSeeBalances;
}
