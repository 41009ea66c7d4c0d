import { TestOrganization, TestService } from "./harness";

/**
 * What most tests work in, made through the REST API: an organization with a location, a role
 * and, as asked, a first worker with a token, a manager and a break type. The one builder of test
 * data; the scheduling and time-off tests view it through `scheduleWorkplace` and `timeOffWorkplace`.
 */
export interface Workplace {
  org: TestOrganization;
  /** REST base of the organization: /api/organizations/{org}. */
  orgBase: string;
  locationId: string;
  roleId: string;
  /** The first worker (E-1, P-1, with the role and the location); empty when asked for none. */
  workerId: string;
  workerToken: string;
  /** The manager, when one was asked for. */
  manager?: { id: string; token: string };
  breakTypeId?: string;
}

export interface WorkplaceOptions {
  /** The organization's name (a random one by default) and its time zone (the location's by default). */
  name?: string;
  orgTimezone?: string;
  location?: { name?: string; externalId?: string };
  role?: string;
  /** false: no first worker. */
  worker?: boolean;
  /** A manager with these fields. */
  manager?: Record<string, unknown>;
  /** A break type of the location with these fields. */
  breakType?: Record<string, unknown>;
}

const randomName = () => `Org ${Math.random().toString(36).slice(2, 7)}`;

/** An organization with a location in `timezone`, a role paid `wage` and, unless told otherwise, one worker with a token. */
export async function workplace(t: TestService, timezone = "America/New_York", wage = 20, options: WorkplaceOptions = {}): Promise<Workplace> {
  const org = await t.organization(options.name ?? randomName(), options.orgTimezone);
  const orgBase = `/api/organizations/${org.id}`;
  const api = t.as(org.token);
  const location = await api.post(`${orgBase}/locations`, {
    name: options.location?.name ?? `Store ${timezone}`,
    timezone,
    ...(options.location?.externalId ? { externalId: options.location.externalId } : {}),
  });
  const role = await api.post(`${orgBase}/roles`, { name: options.role ?? "Cashier", hourlyWage: wage });
  const place: Workplace = { org, orgBase, locationId: location.body.id, roleId: role.body.id, workerId: "", workerToken: "" };
  if (options.breakType) {
    const breakType = await api.post(`${orgBase}/locations/${place.locationId}/breaks`, options.breakType);
    if (breakType.status !== 201) throw new Error(`break type: ${breakType.status} ${JSON.stringify(breakType.body)}`);
    place.breakTypeId = breakType.body.id;
  }
  if (options.worker !== false) {
    const worker = await t.staffWithToken(org, "Worker", {
      externalEmployeeId: "E-1",
      payrollId: "P-1",
      roleIds: [place.roleId],
      locationIds: [place.locationId],
    });
    place.workerId = worker.staff.id;
    place.workerToken = worker.token;
  }
  if (options.manager) {
    const manager = await t.staffWithToken(org, "Manager", options.manager);
    place.manager = { id: manager.staff.id, token: manager.token };
  }
  return place;
}

export async function addLocation(t: TestService, org: TestOrganization, timezone: string): Promise<string> {
  const res = await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name: `Site ${timezone}`, timezone });
  return res.body.id;
}

export async function addWorker(t: TestService, org: TestOrganization, fields: Record<string, unknown> = {}) {
  return t.staffWithToken(org, "Worker", fields);
}

export interface ScheduleWorkplace {
  org: TestOrganization;
  locationId: string;
  roleId: string;
  breakTypeId: string;
  /** The manager's token. */
  manager: string;
  /** REST base of the location: /api/organizations/{org}/locations/{location}. */
  base: string;
  /** Adds a worker with the role and location (W-1, W-2, …). */
  worker(fields?: Record<string, unknown>): Promise<{ id: string; token: string }>;
}

/** A New York location "Main St" with a cook's role, a lunch break type, a manager, and workers added as needed. */
export async function scheduleWorkplace(t: TestService, name = "Diner"): Promise<ScheduleWorkplace> {
  const place = await workplace(t, "America/New_York", 20, {
    name,
    location: { name: "Main St", externalId: "LOC-1" },
    role: "Cook",
    worker: false,
    breakType: { name: "Lunch", durationMinutes: 30, frequencyMinutes: 240, paid: false, mandatory: true, enabled: true },
    manager: {},
  });
  let n = 0;
  return {
    org: place.org,
    locationId: place.locationId,
    roleId: place.roleId,
    breakTypeId: place.breakTypeId!,
    manager: place.manager!.token,
    base: `${place.orgBase}/locations/${place.locationId}`,
    async worker(fields = {}) {
      n += 1;
      const { staff, token } = await t.staffWithToken(place.org, "Worker", {
        externalEmployeeId: `W-${n}`,
        roleIds: [place.roleId],
        locationIds: [place.locationId],
        ...fields,
      });
      return { id: staff.id, token };
    },
  };
}

export interface TimeOffWorkplace {
  org: TestOrganization;
  /** REST base of the organization. */
  base: string;
  locationId: string;
  roleId: string;
  worker: { id: string; token: string };
  manager: { id: string; token: string };
  /** Policy type ids by type (Vacation, Sick, …). */
  types: Record<string, string>;
}

/** An organization in `timezone` with a store, a cashier's role, a worker (E-1) and a manager (M-1). */
export async function timeOffWorkplace(t: TestService, timezone = "America/New_York"): Promise<TimeOffWorkplace> {
  const place = await workplace(t, timezone, 20, { orgTimezone: timezone, location: { name: "Store" }, manager: { externalEmployeeId: "M-1" } });
  return {
    org: place.org,
    base: place.orgBase,
    locationId: place.locationId,
    roleId: place.roleId,
    worker: { id: place.workerId, token: place.workerToken },
    manager: place.manager!,
    types: await policyTypes(t, place.org),
  };
}

/** The organization's policy type ids by type. */
export async function policyTypes(t: TestService, org: TestOrganization): Promise<Record<string, string>> {
  const types = await t.as(org.token).get(`/api/organizations/${org.id}/policy-types`);
  return Object.fromEntries((types.body as { id: string; type: string }[]).map((x) => [x.type, x.id]));
}

/** An Active policy with the given fields (Vacation, hours, no accrual unless limitSettings says). */
export async function activePolicy(
  t: TestService,
  w: { org: TestOrganization; types?: Record<string, string> },
  fields: Record<string, unknown> = {},
): Promise<string> {
  const api = t.as(w.org.token);
  const base = `/api/organizations/${w.org.id}`;
  const types = w.types ?? (await policyTypes(t, w.org));
  const created = await api.post(`${base}/policies`, { name: `Policy ${Math.random().toString(36).slice(2, 7)}`, typeId: types.Vacation, ...fields });
  if (created.status !== 201) throw new Error(`policy: ${created.status} ${JSON.stringify(created.body)}`);
  const activated = await api.patch(`${base}/policies/${created.body.id}/activate`);
  if (activated.status !== 200) throw new Error(`activate: ${activated.status} ${JSON.stringify(activated.body)}`);
  return created.body.id;
}
