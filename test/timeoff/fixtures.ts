import { TestService } from "../support/harness";
import { TimeOffWorkplace } from "../support/workplace";

/** Sets a worker's balance on a policy through the policy update body (an adjustment in the ledger). */
export async function setBalance(t: TestService, w: TimeOffWorkplace, policyId: string, workerId: string, hoursBalance: number): Promise<void> {
  const res = await t.as(w.org.token).patch(`${w.base}/policies/${policyId}`, { workerPolicies: [{ workerId, hoursBalance, isIncluded: true }] });
  if (res.status !== 200) throw new Error(`balance: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function balanceOf(
  t: TestService,
  w: TimeOffWorkplace,
  policyId: string,
  workerId: string,
): Promise<{ id: string; hoursBalance: number; availableBalance: number; isIncluded: boolean }> {
  const res = await t.as(w.org.token).get(`${w.base}/worker-policies?policyId=${policyId}&workerId=${workerId}`);
  if (res.status !== 200 || res.body.length !== 1) throw new Error(`worker policy: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body[0];
}

/** The ledger of a worker policy, through GraphQL. */
export async function ledgerOf(
  t: TestService,
  w: TimeOffWorkplace,
  workerPolicyId: string,
): Promise<{ kind: string; hours: number; effectiveDate: string; periodKey: string | null; note: string | null }[]> {
  const res = await t.gql(
    w.org.token,
    `query($id: ID!) { timeOffLedger(workerPolicyId: $id, first: 1000) { nodes { kind hours effectiveDate periodKey note recordedAt } } }`,
    { id: workerPolicyId },
  );
  if (res.errors) throw new Error(JSON.stringify(res.errors));
  return res.data!.timeOffLedger.nodes;
}

/** An 8-hour all-day request body for `date` (New York). */
export const dayOff = (policyId: string, date: string, extra: Record<string, unknown> = {}) => ({
  policyId,
  startTime: `${date}T00:00:00`,
  endTime: `${date}T23:59:59`,
  isAllDay: true,
  ...extra,
});
