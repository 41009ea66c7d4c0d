import { TestOrganization, TestService } from "./harness";

/**
 * One record of every kind an organization holds (location, role, staff, break type, shift, note,
 * schedule entry and draft, open shift and preference, policy type, policy, worker policy, time-off
 * request), made through the REST API, by the name tests use to fill path parameters. Their names
 * start with `label`: the word leak checks look for in answers.
 */
export async function victimRecords(t: TestService, org: TestOrganization, label = "Secret"): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const api = t.as(org.token);
  const base = `/api/organizations/${org.id}`;
  ids.location = (await api.post(`${base}/locations`, { name: label, timezone: "UTC" })).body.id;
  ids.role = (await api.post(`${base}/roles`, { name: `${label} role`, hourlyWage: 20 })).body.id;
  ids.staff = (await api.post(`${base}/staff`, { name: `${label} staff`, roleIds: [ids.role], locationIds: [ids.location] })).body.id;
  ids.accessRole = (await api.get(`${base}/access-roles`)).body[0].id;
  // A key of its own: revoking the organization's first key would end the tests' token.
  ids.apiKey = (await api.post(`${base}/api-keys`, { name: "Spare key" })).body.apiKey.id;
  ids.breakType = (
    await api.post(`${base}/locations/${ids.location}/breaks`, {
      name: `${label} break`,
      durationMinutes: 30,
      frequencyMinutes: 0,
      paid: false,
      mandatory: false,
      enabled: true,
    })
  ).body.id;
  ids.shiftTemplate = (
    await api.post(`${base}/locations/${ids.location}/shift-templates`, { name: `${label} template`, roleId: ids.role, startTime: "09:00", endTime: "17:00" })
  ).body.id;
  await api.put(`${base}/locations/${ids.location}/coverage`, {
    startDate: "2026-03-09",
    endDate: "2026-03-15",
    requirements: [{ date: "2026-03-09", templateId: ids.shiftTemplate, count: 1 }],
  });
  ids.generation = (
    await api.post(`${base}/locations/${ids.location}/schedules/generate`, { startDate: "2026-03-16", endDate: "2026-03-22", timeLimitSeconds: 1 })
  ).body.id;
  ids.clockDevice = (await api.post(`${base}/locations/${ids.location}/clock-devices`, { name: `${label} kiosk` })).body.device?.id;
  // With a policy, a corrected punch without a schedule entry leaves an UNSCHEDULED_SHIFT exception.
  await api.put(`${base}/attendance-policy`, {});
  await api.post("/api/time-tracking/clock-in", { workerId: ids.staff, locationId: ids.location, roleId: ids.role, time: "2026-03-01T09:00:00Z" });
  await api.post("/api/time-tracking/clock-out", { workerId: ids.staff, time: "2026-03-01T10:00:00Z" });
  ids.attendanceException = (await api.get(`${base}/attendance-exceptions?startDate=2026-03-01&endDate=2026-03-01`)).body[0]?.id;
  ids.shift = (
    await api.post("/api/timesheets", {
      employeeId: ids.staff,
      locationId: ids.location,
      roleId: ids.role,
      startTime: "2026-03-02T09:00:00Z",
      endTime: "2026-03-02T17:00:00Z",
    })
  ).body.id;
  ids.note = (await api.post(`/api/timesheets/${ids.shift}/notes`, { text: `${label} note` })).body.id;
  const schedules = `${base}/locations/${ids.location}/schedules`;
  await api.post(`${schedules}/drafts`, { workerId: ids.staff, roleId: ids.role, startTime: "2026-03-10T09:00:00Z", endTime: "2026-03-10T17:00:00Z" });
  await api.post(`${schedules}/publish`, { startDate: "2026-03-10", endDate: "2026-03-10" });
  ids.entry = (await api.get(`${schedules}?startDate=2026-03-10&endDate=2026-03-10`)).body[0].id;
  ids.draft = (
    await api.post(`${schedules}/drafts`, { workerId: ids.staff, roleId: ids.role, startTime: "2026-03-11T09:00:00Z", endTime: "2026-03-11T17:00:00Z" })
  ).body.id;
  const openShifts = `${base}/locations/${ids.location}/open-shifts`;
  ids.openShift = (
    await api.post(openShifts, { roleId: ids.role, startDate: "2026-03-12T09:00:00Z", endDate: "2026-03-12T17:00:00Z", staffCountRequired: 2 })
  ).body.id;
  ids.preference = (await api.post(`${openShifts}/${ids.openShift}/preferences`, { workerId: ids.staff, preference: "PREFERRED" })).body.id;
  ids.policyType = (await api.get(`${base}/policy-types`)).body.find((x: { type: string }) => x.type === "Vacation").id;
  ids.policy = (
    await api.post(`${base}/policies`, {
      name: `${label} policy`,
      typeId: ids.policyType,
      allowNegativeBalance: true,
      defaultSettings: { assignedStaff: { type: "All" } },
    })
  ).body.id;
  await api.patch(`${base}/policies/${ids.policy}/activate`);
  // The policy includes every staff member: the staff member's balance on it.
  ids.workerPolicy = (await api.get(`${base}/worker-policies?policyId=${ids.policy}`)).body[0]?.id;
  // Disabled, and for a rare type: nothing is ever sent to its (public) address from a test.
  ids.webhookEndpoint = (
    await api.post(`${base}/webhook-endpoints`, { url: "https://93.184.215.14/hooks", eventTypes: ["timesheet.day_unlocked"], enabled: false })
  ).body.id;
  ids.request = (
    await api.post(`${base}/time-off-requests`, {
      workerId: ids.staff,
      policyId: ids.policy,
      startTime: "2026-04-01T09:00:00Z",
      endTime: "2026-04-01T17:00:00Z",
    })
  ).body.id;
  // The default pay schedule runs weekly from Mondays: a period starts on this one.
  ids.startDate = "2026-03-02";
  ids.availabilityRule = (
    await api.post(`${base}/staff/${ids.staff}/availability`, {
      kind: "PREFER_OFF",
      weekdays: ["MON"],
      startTime: "22:00",
      endTime: "06:00",
      note: `${label} rule`,
    })
  ).body.id;
  ids.calendarFeed = (await api.post(`${base}/staff/${ids.staff}/calendar-feed`)).body.id;
  ids.shiftRequest = (await api.post(`${base}/shift-requests`, { type: "COVER", entryId: ids.entry, note: `${label} request` })).body.id;
  for (const [name, id] of Object.entries(ids)) if (!id) throw new Error(`record ${name} was not created`);
  return ids;
}

/** Which record a path parameter names, by the path segment before it. */
const RECORD_OF_COLLECTION: Record<string, string> = {
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
  "shift-templates": "shiftTemplate",
  "schedule-generations": "generation",
  "open-shifts": "openShift",
  preferences: "preference",
  policies: "policy",
  "time-off-requests": "request",
  "webhook-endpoints": "webhookEndpoint",
  "worker-policies": "workerPolicy",
  workers: "staff",
  "clock-devices": "clockDevice",
  "attendance-exceptions": "attendanceException",
  availability: "availabilityRule",
  "shift-requests": "shiftRequest",
};

/** A route's path with `{org}` and every other parameter filled with the records in `ids`. */
export function fillPath(path: string, organizationId: string, ids: Record<string, string>): string {
  const segments = path.split("/");
  return segments
    .map((segment, i) => {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (!param) return segment;
      if (param === "org") return organizationId;
      // A parameter that names its record (`staffId`, `startDate`) says which; else the collection before it does.
      const named = param.replace(/Id$/, "");
      const record =
        (param !== "id" && ids[named] ? named : undefined) ?? RECORD_OF_COLLECTION[segments[i - 1]] ?? (param === "locationId" ? "location" : undefined);
      if (!record || !ids[record]) throw new Error(`no record for ${path} ${param}`);
      return ids[record];
    })
    .join("/");
}

/** Id names that do not spell their record's name. */
const RECORD_OF_ID_NAME: Record<string, string> = {
  worker: "staff",
  employee: "staff",
  actorStaff: "staff",
  actorApiKey: "apiKey",
  type: "breakType",
  breaks: "breakType",
  resource: "location",
  template: "shiftTemplate",
  cannotBeFollowedBy: "shiftTemplate",
  recipientStaff: "staff",
  recipientEntry: "entry",
};

/**
 * The record of `ids` an id argument (or input field) of a GraphQL operation names. By its name
 * (`locationId`, `roleIds`, `workerId`), read in the operation's own terms first (a policy's `typeId`
 * names a policy type, a shift's a break type); a bare `id` names the first record the operation's
 * name mentions that no other argument names (`deleteShiftNote(id, shiftId)`: the note;
 * `assignOpenShiftPreference(id, preferenceId)`: the open shift).
 */
export function recordIdFor(operation: { name: string; args: readonly { name: string }[] }, idName: string, ids: Record<string, string>): string {
  // The records the operation's name mentions, earliest first, the longest at one place ("OpenShift" before "Shift").
  const mentioned = Object.keys(ids)
    .map((r) => ({ r, at: operation.name.toLowerCase().indexOf(r.toLowerCase()) }))
    .filter(({ at }) => at >= 0)
    .sort((a, b) => a.at - b.at || b.r.length - a.r.length)
    .map(({ r }) => r);
  const recordOf = (name: string): string | undefined => {
    const base = name.replace(/Ids?$/, "");
    const ofOperation = mentioned.map((m) => m + base[0].toUpperCase() + base.slice(1)).find((r) => ids[r]);
    return ids[base] ? base : (ofOperation ?? RECORD_OF_ID_NAME[base]);
  };
  const named = new Set(operation.args.map((a) => recordOf(a.name)));
  const record = recordOf(idName) ?? mentioned.find((r) => !named.has(r));
  if (!record) throw new Error(`no record for ${idName} of ${operation.name}`);
  return ids[record];
}

/** A digest of every row of the organizations, table by table: any change to their data shows. */
export async function organizationData(t: TestService, organizationIds: string[]): Promise<Record<string, string>> {
  const tables: { table_name: string }[] = await t.runtime.db.query(
    "SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'organization_id' ORDER BY 1",
  );
  const digest: Record<string, string> = {};
  for (const { table_name: table } of tables) {
    const [row] = await t.runtime.db.query(
      `SELECT count(*) AS n, md5(coalesce(string_agg(r::text, ',' ORDER BY r::text), '')) AS h FROM "${table}" r WHERE organization_id = ANY ($1::uuid[])`,
      [organizationIds],
    );
    digest[table] = `${row.n}:${row.h}`;
  }
  return digest;
}
