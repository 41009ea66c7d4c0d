import { TestOrganization, TestService } from "../support/harness";

export interface TimeOffWorld {
  org: TestOrganization;
  base: string;
  locationId: string;
  roleId: string;
  worker: { id: string; token: string };
  manager: { id: string; token: string };
  types: Record<string, string>;
}

/** An organization in New York with a store, a role, a worker (E-1) and a manager. */
export async function timeOffWorld(t: TestService, timezone = "America/New_York"): Promise<TimeOffWorld> {
  const org = await t.organization(`Org ${Math.random().toString(36).slice(2, 7)}`, timezone);
  const base = `/api/organizations/${org.id}`;
  const api = t.as(org.token);
  const location = await api.post(`${base}/locations`, { name: "Store", timezone });
  const role = await api.post(`${base}/roles`, { name: "Cashier", hourlyWage: 20 });
  const worker = await t.staffWithToken(org, "Worker", { externalEmployeeId: "E-1", payrollId: "P-1", roleIds: [role.body.id], locationIds: [location.body.id] });
  const manager = await t.staffWithToken(org, "Manager", { externalEmployeeId: "M-1" });
  const types = await api.get(`${base}/policy-types`);
  return {
    org,
    base,
    locationId: location.body.id,
    roleId: role.body.id,
    worker: { id: worker.staff.id, token: worker.token },
    manager: { id: manager.staff.id, token: manager.token },
    types: Object.fromEntries((types.body as { id: string; type: string }[]).map((x) => [x.type, x.id])),
  };
}

/** An Active policy with the given fields (Vacation, hours, no accrual unless limitSettings says). */
export async function activePolicy(t: TestService, w: TimeOffWorld, fields: Record<string, unknown> = {}): Promise<string> {
  const api = t.as(w.org.token);
  const created = await api.post(`${w.base}/policies`, { name: `Policy ${Math.random().toString(36).slice(2, 7)}`, typeId: w.types.Vacation, ...fields });
  if (created.status !== 201) throw new Error(`policy: ${created.status} ${JSON.stringify(created.body)}`);
  const activated = await api.patch(`${w.base}/policies/${created.body.id}/activate`);
  if (activated.status !== 200) throw new Error(`activate: ${activated.status} ${JSON.stringify(activated.body)}`);
  return created.body.id;
}

/** Sets a worker's balance on a policy through the policy update body (an adjustment in the ledger). */
export async function setBalance(t: TestService, w: TimeOffWorld, policyId: string, workerId: string, hoursBalance: number): Promise<void> {
  const res = await t.as(w.org.token).patch(`${w.base}/policies/${policyId}`, { workerPolicies: [{ workerId, hoursBalance, isIncluded: true }] });
  if (res.status !== 200) throw new Error(`balance: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function balanceOf(t: TestService, w: TimeOffWorld, policyId: string, workerId: string): Promise<{ id: string; hoursBalance: number; availableBalance: number; isIncluded: boolean }> {
  const res = await t.as(w.org.token).get(`${w.base}/worker-policies?policyId=${policyId}&workerId=${workerId}`);
  if (res.status !== 200 || res.body.length !== 1) throw new Error(`worker policy: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body[0];
}

/** The ledger of a worker policy, through GraphQL. */
export async function ledgerOf(t: TestService, w: TimeOffWorld, workerPolicyId: string): Promise<{ kind: string; hours: number; effectiveDate: string; periodKey: string | null; note: string | null }[]> {
  const res = await t.gql(w.org.token, `query($id: ID!) { timeOffLedger(workerPolicyId: $id, first: 1000) { nodes { kind hours effectiveDate periodKey note recordedAt } } }`, { id: workerPolicyId });
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
