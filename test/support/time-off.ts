import { TestOrganization, TestService } from "./harness";

/**
 * Time off of a worker in the given status, filed through the time-off API on a policy of its own
 * (approved at once where `status` is approved).
 */
export async function fileTimeOff(t: TestService, org: TestOrganization, workerId: string, startTime: string, endTime: string, status: "approved" | "pending"): Promise<string> {
  const api = t.as(org.token);
  const base = `/api/organizations/${org.id}`;
  const types = (await api.get(`${base}/policy-types`)).body as { id: string; type: string }[];
  const policy = await api.post(`${base}/policies`, {
    name: `Leave ${Math.random().toString(36).slice(2, 7)}`,
    typeId: types.find((x) => x.type === "Vacation")!.id,
    allowNegativeBalance: true,
    requiresApproval: status === "pending",
    defaultSettings: { assignedStaff: { type: "Staff", value: workerId } },
  });
  if (policy.status !== 201) throw new Error(`policy: ${policy.status} ${JSON.stringify(policy.body)}`);
  await api.patch(`${base}/policies/${policy.body.id}/activate`);
  const request = await api.post(`${base}/time-off-requests`, { workerId, policyId: policy.body.id, startTime, endTime });
  if (request.status !== 201 || request.body.status !== status) throw new Error(`time off: ${request.status} ${JSON.stringify(request.body)}`);
  return request.body.id;
}
