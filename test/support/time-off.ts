import { TestOrganization, TestService } from "./harness";
import { activePolicy } from "./workplace";

/**
 * Time off of a worker in the given status, filed through the time-off API on a policy of its own
 * (approved at once where `status` is approved).
 */
export async function fileTimeOff(
  t: TestService,
  org: TestOrganization,
  workerId: string,
  startTime: string,
  endTime: string,
  status: "approved" | "pending",
): Promise<string> {
  const policyId = await activePolicy(
    t,
    { org },
    {
      allowNegativeBalance: true,
      requiresApproval: status === "pending",
      defaultSettings: { assignedStaff: { type: "Staff", value: workerId } },
    },
  );
  const request = await t.as(org.token).post(`/api/organizations/${org.id}/time-off-requests`, { workerId, policyId, startTime, endTime });
  if (request.status !== 201 || request.body.status !== status) throw new Error(`time off: ${request.status} ${JSON.stringify(request.body)}`);
  return request.body.id;
}
