import { restRoutes } from "../../src/app/modules";
import { TestOrganization, TestService } from "../support/harness";
import { fillPath, organizationData, victimRecords } from "../support/records";

/**
 * A valid body for the paths that check their body before the records they name, so that the
 * call reaches the lookup; the others get an empty one.
 */
function bodyFor(method: string, path: string, ids: Record<string, string>): object {
  const bodies: [RegExp, object][] = [
    [/^POST .*\/breaks$/, { name: "Break", durationMinutes: 30, frequencyMinutes: 0, paid: false, mandatory: false, enabled: true }],
    [/^(POST|PATCH) .*\/notes(\/\{noteId\})?$/, { text: "Note" }],
    [/^POST .*\/schedules$/, { workerId: ids.staff, roleId: ids.role, startTime: "2026-03-20T09:00:00Z", endTime: "2026-03-20T17:00:00Z" }],
    [/^POST .*\/schedules\/bulk-copy$/, { sourceStartDate: "2026-03-10", sourceEndDate: "2026-03-10", targetStartDate: "2026-03-17" }],
    [/^POST .*\/schedules\/publish$/, { startDate: "2026-03-10", endDate: "2026-03-10" }],
    [/^POST .*\/open-shifts$/, { roleId: ids.role, startDate: "2026-03-12T09:00:00Z", endDate: "2026-03-12T17:00:00Z", staffCountRequired: 1 }],
    [/^POST .*\/bulk-assign$/, { preferenceIds: [ids.preference] }],
    [/^POST .*\/\{id\}\/(claim|retract)$/, { workerId: ids.staff }],
    [/^POST .*\/preferences$/, { workerId: ids.staff, preference: "PREFERRED" }],
    [/^PATCH .*\/preferences\/\{preferenceId\}$/, { preference: "PREFERRED" }],
    [/^POST .*\/webhook-endpoints\/\{id\}\/recover$/, { since: "2026-03-01T00:00:00.000Z" }],
    [/^POST .*\/schedules\/compliance-check$/, { startDate: "2026-03-10", endDate: "2026-03-16" }],
    [/^PUT .*\/workers\/\{workerId\}\/balance$/, { hoursBalance: 8, note: "Set" }],
    [/^POST .*\/shift-templates$/, { name: "Template", roleId: ids.role, startTime: "09:00", endTime: "17:00" }],
    [/^PUT .*\/coverage$/, { startDate: "2026-03-09", endDate: "2026-03-09", requirements: [] }],
    [/^POST .*\/schedules\/generate$/, { startDate: "2026-03-16", endDate: "2026-03-22" }],
    [/^POST .*\/clock-devices$/, { name: "Kiosk" }],
    [/^PATCH .*\/attendance-exceptions\/\{id\}$/, { status: "EXCUSED", note: "Excused" }],
    [/^POST .*\/staff\/\{staffId\}\/availability$/, { kind: "UNAVAILABLE", date: "2026-03-20" }],
  ];
  return bodies.find(([pattern]) => pattern.test(`${method} ${path}`))?.[1] ?? {};
}

/** A call whose body refers to records, built from the records it is given. */
interface BodyReferences {
  method: "post" | "patch";
  path: (org: string, own: Record<string, string>) => string;
  body: (refs: Record<string, string>) => object;
  /** Each field of the body that refers to a record, with the record kind it takes and the field the answer names. */
  fields: { kind: string; field: string }[];
}

/**
 * One call of each kind that refers to records in its body (the caller's own records in the path),
 * on days of their own so that the calls with the caller's own records all succeed.
 */
const BODY_REFERENCES: BodyReferences[] = [
  {
    method: "post",
    path: (org, own) => `/api/organizations/${org}/locations/${own.location}/shift-templates`,
    body: (r) => ({ name: "Intruder's template", roleId: r.role, startTime: "09:00", endTime: "17:00" }),
    fields: [{ kind: "role", field: "roleId" }],
  },
  {
    method: "post",
    path: () => "/api/timesheets",
    body: (r) => ({
      employeeId: r.staff,
      locationId: r.location,
      roleId: r.role,
      startTime: "2026-03-03T09:00:00Z",
      endTime: "2026-03-03T17:00:00Z",
      breaks: [{ startTime: "2026-03-03T12:00:00Z", endTime: "2026-03-03T12:30:00Z", typeId: r.breakType }],
    }),
    fields: [
      { kind: "staff", field: "employeeId" },
      { kind: "location", field: "locationId" },
      { kind: "role", field: "roleId" },
      { kind: "breakType", field: "breaks.0.typeId" },
    ],
  },
  {
    method: "patch",
    path: (_org, own) => `/api/timesheets/${own.shift}`,
    body: (r) => ({ roleId: r.role, breaks: [{ startTime: "2026-03-02T12:00:00Z", endTime: "2026-03-02T12:30:00Z", typeId: r.breakType }] }),
    fields: [
      { kind: "role", field: "roleId" },
      { kind: "breakType", field: "breaks.0.typeId" },
    ],
  },
  {
    method: "post",
    path: () => "/api/time-tracking/clock-in",
    body: (r) => ({ workerId: r.spare, locationId: r.location, roleId: r.role, time: "2026-03-02T11:00:00Z" }),
    fields: [
      { kind: "spare", field: "workerId" },
      { kind: "location", field: "locationId" },
      { kind: "role", field: "roleId" },
    ],
  },
  {
    method: "post",
    path: (org) => `/api/organizations/${org}/staff`,
    body: (r) => ({ name: "Intruder's new staff", roleIds: [r.role], locationIds: [r.location], accessRoleId: r.accessRole }),
    fields: [
      { kind: "role", field: "roleIds" },
      { kind: "location", field: "locationIds" },
      { kind: "accessRole", field: "accessRoleId" },
    ],
  },
  {
    method: "post",
    path: (org, own) => `/api/organizations/${org}/locations/${own.location}/schedules`,
    body: (r) => ({ workerId: r.staff, roleId: r.role, startTime: "2026-03-20T09:00:00Z", endTime: "2026-03-20T17:00:00Z", breaks: [{ typeId: r.breakType }] }),
    fields: [
      { kind: "staff", field: "workerId" },
      { kind: "role", field: "roleId" },
      { kind: "breakType", field: "breaks.0" },
    ],
  },
  {
    method: "post",
    path: (org, own) => `/api/organizations/${org}/locations/${own.location}/open-shifts`,
    body: (r) => ({ roleId: r.role, startDate: "2026-03-13T09:00:00Z", endDate: "2026-03-13T17:00:00Z", staffCountRequired: 1, breaks: [r.breakType] }),
    fields: [
      { kind: "role", field: "roleId" },
      { kind: "breakType", field: "breaks.0" },
    ],
  },
  {
    method: "post",
    path: (org, own) => `/api/organizations/${org}/locations/${own.location}/open-shifts/${own.openShift}/preferences`,
    body: (r) => ({ workerId: r.spare, preference: "PREFERRED" }),
    fields: [{ kind: "spare", field: "workerId" }],
  },
  {
    method: "post",
    path: (org) => `/api/organizations/${org}/policies`,
    body: (r) => ({
      name: "Intruder's new policy",
      typeId: r.policyType,
      locationId: r.location,
      defaultSettings: { assignedStaff: { type: "Staff", value: r.staff } },
    }),
    fields: [
      { kind: "policyType", field: "typeId" },
      { kind: "location", field: "locationId" },
      { kind: "staff", field: "defaultSettings.assignedStaff.value" },
    ],
  },
  {
    method: "post",
    path: (org) => `/api/organizations/${org}/time-off-requests`,
    body: (r) => ({ workerId: r.staff, policyId: r.policy, locationId: r.location, startTime: "2026-05-04T09:00:00Z", endTime: "2026-05-04T17:00:00Z" }),
    fields: [
      { kind: "staff", field: "workerId" },
      { kind: "policy", field: "policyId" },
      { kind: "location", field: "locationId" },
    ],
  },
];

/**
 * Every REST path that names a record, called by another organization with its own organization
 * in the path and the victim's records in the rest, so that every lookup of a record is reached:
 * 404, no data, nothing changed. Generated from the route table, so a new path is covered the day
 * it is added. Each read first answers 200 with the caller's own records in the same places, so
 * the 404 is the tenant check's and not a path that never works.
 */
describe("tenant isolation across the REST route table", () => {
  let t: TestService;
  let victim: TestOrganization;
  let intruder: TestOrganization;
  let ids: Record<string, string>;
  let intruderIds: Record<string, string>;

  const auditCount = async () => Number((await t.runtime.db.query("SELECT count(*) AS n FROM audit_events WHERE organization_id = $1", [victim.id]))[0].n);

  beforeAll(async () => {
    t = await TestService.start();
    victim = await t.organization("Victim");
    ids = await victimRecords(t, victim);
    intruder = await t.organization("Intruder");
    intruderIds = await victimRecords(t, intruder, "Intruder's");
  });
  afterAll(() => t.stop());

  it("answers 404 to another organization's token on every path that names a record, and changes nothing", async () => {
    // A pay period's start date is a date of the caller's own calendar, not a record.
    const routes = restRoutes.filter((r) => /\{(?!org\}|startDate\})\w+\}/.test(r.path));
    expect(routes.length).toBeGreaterThan(30);
    const before = await auditCount();
    const failures: string[] = [];
    for (const route of routes) {
      const method = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
      if (method === "get") {
        const own = await t.as(intruder.token).get(fillPath(route.path, intruder.id, intruderIds));
        if (own.status !== 200) failures.push(`${route.method} ${route.path} with the caller's own records → ${own.status}`);
      }
      const res = await t.as(intruder.token)[method](fillPath(route.path, intruder.id, ids), bodyFor(route.method, route.path, ids));
      if (res.status !== 404 || res.body.error?.code !== "NOT_FOUND") failures.push(`${route.method} ${route.path} → ${res.status} ${res.body.error?.code}`);
      if (/Secret/.test(JSON.stringify(res.body))) failures.push(`${route.method} ${route.path} leaked data`);
    }
    expect(failures).toEqual([]);
    expect(await auditCount()).toBe(before);
    expect((await t.as(victim.token).get(`/api/organizations/${victim.id}/locations/${ids.location}`)).body.name).toBe("Secret");
  });

  it("answers 404 naming the field to a body that refers to another organization's record, and changes nothing", async () => {
    const api = t.as(intruder.token);
    // A staff member with nothing booked, for the calls that need one.
    const own: Record<string, string> = {
      ...intruderIds,
      spare: (
        await api.post(`/api/organizations/${intruder.id}/staff`, {
          name: "Intruder's spare staff",
          roleIds: [intruderIds.role],
          locationIds: [intruderIds.location],
        })
      ).body.id,
    };
    const theirs: Record<string, string> = { ...ids, spare: ids.staff };
    const before = await organizationData(t, [victim.id, intruder.id]);
    const failures: string[] = [];
    for (const call of BODY_REFERENCES) {
      const path = call.path(intruder.id, own);
      for (const { kind, field } of call.fields) {
        const res = await api[call.method](path, call.body({ ...own, [kind]: theirs[kind] }));
        const error = res.body.error;
        if (res.status !== 404 || error?.code !== "NOT_FOUND" || error.details?.[0]?.field !== field)
          failures.push(`${call.method} ${path} ${field} → ${res.status} ${JSON.stringify(error)}`);
        if (/Secret/.test(JSON.stringify(res.body))) failures.push(`${call.method} ${path} ${field} leaked data`);
      }
    }
    expect(failures).toEqual([]);
    expect(await organizationData(t, [victim.id, intruder.id])).toEqual(before);
    // The same calls with the caller's own records succeed: each 404 was the tenant check's.
    for (const call of BODY_REFERENCES) {
      const res = await api[call.method](call.path(intruder.id, own), call.body(own));
      if (res.status >= 300)
        failures.push(`${call.method} ${call.path(intruder.id, own)} with the caller's own records → ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(failures).toEqual([]);
  });
});
