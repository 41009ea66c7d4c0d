import { TestOrganization, TestService } from "../support/harness";

export interface ScheduleWorld {
  org: TestOrganization;
  locationId: string;
  roleId: string;
  breakTypeId: string;
  manager: string;
  /** REST base of the location: /api/organizations/{org}/locations/{location}. */
  base: string;
  worker(fields?: Record<string, unknown>): Promise<{ id: string; token: string }>;
}

/** An organization with one New York location, a role, a break type, a manager and a way to add workers. */
export async function scheduleWorld(t: TestService, name = "Diner"): Promise<ScheduleWorld> {
  const org = await t.organization(name);
  const api = t.as(org.token);
  const locationId = (await api.post(`/api/organizations/${org.id}/locations`, { name: "Main St", timezone: "America/New_York", externalId: "LOC-1" })).body.id;
  const roleId = (await api.post(`/api/organizations/${org.id}/roles`, { name: "Cook", hourlyWage: 20 })).body.id;
  const breakType = await api.post(`/api/organizations/${org.id}/locations/${locationId}/breaks`, { name: "Lunch", durationMinutes: 30, frequencyMinutes: 240, paid: false, mandatory: true, enabled: true });
  if (breakType.status !== 201) throw new Error(`break type: ${breakType.status} ${JSON.stringify(breakType.body)}`);
  const manager = (await t.staffWithToken(org, "Manager")).token;
  let n = 0;
  return {
    org,
    locationId,
    roleId,
    breakTypeId: breakType.body.id,
    manager,
    base: `/api/organizations/${org.id}/locations/${locationId}`,
    async worker(fields = {}) {
      n += 1;
      const { staff, token } = await t.staffWithToken(org, "Worker", { externalEmployeeId: `W-${n}`, roleIds: [roleId], locationIds: [locationId], ...fields });
      return { id: staff.id, token };
    },
  };
}
