import { TestOrganization, TestService } from "../support/harness";

export interface Workplace {
  org: TestOrganization;
  locationId: string;
  roleId: string;
  workerId: string;
  workerToken: string;
}

/** An organization with a location in `timezone`, a role paid `wage` and one worker with a token. */
export async function workplace(t: TestService, timezone = "America/New_York", wage = 20): Promise<Workplace> {
  const org = await t.organization(`Org ${Math.random().toString(36).slice(2, 7)}`);
  const api = t.as(org.token);
  const location = await api.post(`/api/organizations/${org.id}/locations`, { name: `Store ${timezone}`, timezone });
  const role = await api.post(`/api/organizations/${org.id}/roles`, { name: "Cashier", hourlyWage: wage });
  const worker = await t.staffWithToken(org, "Worker", { externalEmployeeId: "E-1", payrollId: "P-1", roleIds: [role.body.id], locationIds: [location.body.id] });
  return { org, locationId: location.body.id, roleId: role.body.id, workerId: worker.staff.id, workerToken: worker.token };
}

export async function addLocation(t: TestService, org: TestOrganization, timezone: string): Promise<string> {
  const res = await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name: `Site ${timezone}`, timezone });
  return res.body.id;
}

export async function addWorker(t: TestService, org: TestOrganization, fields: Record<string, unknown> = {}) {
  return t.staffWithToken(org, "Worker", fields);
}
