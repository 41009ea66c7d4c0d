import { restRoutes } from "../../src/rest/routes";
import { TestOrganization, TestService } from "../support/harness";

/**
 * Every REST path that names a record, called with a token of another organization, answers 404
 * (or, when the empty body is refused first, 400) with no data and changes nothing: generated from the route table, so a new path is covered the
 * day it is added. Each path parameter is filled with a real record of the victim's, chosen by the
 * path segment before it.
 */
const COLLECTION_OF_PARAM: Record<string, string> = {
  locations: "location",
  roles: "role",
  staff: "staff",
  "access-roles": "accessRole",
  "api-keys": "apiKey",
  breaks: "breakType",
  timesheets: "shift",
  notes: "note",
  schedules: "entry",
  drafts: "draft",
  "open-shifts": "openShift",
  preferences: "preference",
  policies: "policy",
  "time-off-requests": "request",
};

describe("tenant isolation across the REST route table", () => {
  let t: TestService;
  let victim: TestOrganization;
  const ids: Record<string, string> = {};

  const auditCount = async () => Number((await t.runtime.db.query("SELECT count(*) AS n FROM audit_events WHERE organization_id = $1", [victim.id]))[0].n);

  beforeAll(async () => {
    t = await TestService.start();
    victim = await t.organization("Victim");
    const api = t.as(victim.token);
    const base = `/api/organizations/${victim.id}`;
    ids.location = (await api.post(`${base}/locations`, { name: "Secret", timezone: "UTC" })).body.id;
    ids.role = (await api.post(`${base}/roles`, { name: "Secret role", hourlyWage: 20 })).body.id;
    ids.staff = (await api.post(`${base}/staff`, { name: "Secret staff", roleIds: [ids.role], locationIds: [ids.location] })).body.id;
    ids.accessRole = (await api.get(`${base}/access-roles`)).body[0].id;
    ids.apiKey = (await api.get(`${base}/api-keys`)).body[0].id;
    ids.breakType = (await api.post(`${base}/locations/${ids.location}/breaks`, { name: "Secret break", durationMinutes: 30, frequencyMinutes: 0, paid: false, mandatory: false, enabled: true })).body.id;
    const shift = await api.post("/api/timesheets", { employeeId: ids.staff, locationId: ids.location, roleId: ids.role, startTime: "2026-03-02T09:00:00Z", endTime: "2026-03-02T17:00:00Z" });
    ids.shift = shift.body.id;
    ids.note = (await api.post(`/api/timesheets/${ids.shift}/notes`, { text: "Secret note" })).body.id;
    const schedules = `${base}/locations/${ids.location}/schedules`;
    ids.draft = (await api.post(`${schedules}/drafts`, { workerId: ids.staff, roleId: ids.role, startTime: "2026-03-10T09:00:00Z", endTime: "2026-03-10T17:00:00Z" })).body.id;
    await api.post(`${schedules}/publish`, { startDate: "2026-03-10", endDate: "2026-03-10" });
    ids.entry = (await api.get(`${schedules}?startDate=2026-03-10&endDate=2026-03-10`)).body[0].id;
    const openShifts = `${base}/locations/${ids.location}/open-shifts`;
    ids.openShift = (await api.post(openShifts, { roleId: ids.role, startDate: "2026-03-12T09:00:00Z", endDate: "2026-03-12T17:00:00Z", staffCountRequired: 2 })).body.id;
    ids.preference = (await api.post(`${openShifts}/${ids.openShift}/preferences`, { workerId: ids.staff, preference: "PREFERRED" })).body.id;
    const vacation = (await api.get(`${base}/policy-types`)).body.find((x: { type: string }) => x.type === "Vacation").id;
    ids.policy = (await api.post(`${base}/policies`, { name: "Secret policy", typeId: vacation, allowNegativeBalance: true, defaultSettings: { assignedStaff: { type: "All" } } })).body.id;
    await api.patch(`${base}/policies/${ids.policy}/activate`);
    ids.request = (await api.post(`${base}/time-off-requests`, { workerId: ids.staff, policyId: ids.policy, startTime: "2026-04-01T09:00:00Z", endTime: "2026-04-01T17:00:00Z" })).body.id;
    for (const [name, id] of Object.entries(ids)) if (!id) throw new Error(`fixture ${name} was not created`);
  });
  afterAll(() => t.stop());

  it("answers 404 to another organization's token on every path that names a record, and changes nothing", async () => {
    const intruder = await t.organization("Intruder");
    const routes = restRoutes.filter((r) => /\{\w+\}/.test(r.path));
    expect(routes.length).toBeGreaterThan(30);
    const before = await auditCount();
    const failures: string[] = [];
    for (const route of routes) {
      const segments = route.path.split("/");
      const path = segments
        .map((segment, i) => {
          const param = /^\{(\w+)\}$/.exec(segment)?.[1];
          if (!param) return segment;
          if (param === "org") return victim.id;
          const fixture = COLLECTION_OF_PARAM[segments[i - 1]] ?? (param === "locationId" ? "location" : undefined);
          if (!fixture || !ids[fixture]) throw new Error(`no fixture for ${route.path} ${param}`);
          return ids[fixture];
        })
        .join("/");
      const method = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
      const res = await t.as(intruder.token)[method](path, {});
      // An empty body may be refused before any record is looked at (400): that says nothing of the record.
      const refusedInput = res.status === 400 && res.body.error?.code === "VALIDATION_FAILED";
      if (res.status !== 404 && !refusedInput) failures.push(`${route.method} ${route.path} → ${res.status}`);
      if (/Secret/.test(JSON.stringify(res.body))) failures.push(`${route.method} ${route.path} leaked data`);
    }
    expect(failures).toEqual([]);
    expect(await auditCount()).toBe(before);
    expect((await t.as(victim.token).get(`/api/organizations/${victim.id}/locations/${ids.location}`)).body.name).toBe("Secret");
  });
});
