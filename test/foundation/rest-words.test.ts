import { TestService } from "../support/harness";
import { activePolicy, timeOffWorkplace, TimeOffWorkplace } from "../support/workplace";

describe("REST speaks REST", () => {
  let t: TestService;
  let w: TimeOffWorkplace;
  beforeAll(async () => {
    t = await TestService.start();
    w = await timeOffWorkplace(t);
  });
  afterAll(() => t?.stop());

  it("names the body's fields in its own words: required, wrong type, unknown with a suggestion", async () => {
    const api = t.as(w.org.token);
    const location = await api.post(`${w.base}/locations`, { name: "Depot", timeZone: "UTC" });
    expect(location.status).toBe(400);
    expect(location.body.error.details).toEqual(
      expect.arrayContaining([
        { field: "timeZone", message: "timeZone is not a field of this body; did you mean timezone?" },
        { field: "timezone", message: "timezone is required" },
      ]),
    );
    const role = await api.post(`${w.base}/roles`, { name: "Baker", hourlyWage: "15.5" });
    expect(role.status).toBe(400);
    expect(role.body.error.details).toEqual([{ field: "hourlyWage", message: "hourlyWage must be a number" }]);
    const shift = await api.post("/api/timesheets", {
      employeeId: w.worker.id,
      locationId: w.locationId,
      roleId: w.roleId,
      startTime: "2026-03-02T09:00:00Z",
      breaks: [{ startTime: 5 }],
    });
    expect(shift.body.error.details).toEqual(expect.arrayContaining([{ field: "breaks[0].startTime", message: "breaks[0].startTime must be a string" }]));
    for (const res of [location, role, shift]) expect(res.body.error.message).not.toMatch(/String!|cannot represent|of required type/);
  });

  it("answers 415 for a body that is not JSON and 405 with Allow for a method the path does not have", async () => {
    const typed = await t.http.post(`${w.base}/locations`).set("Authorization", `Bearer ${w.org.token}`).set("Content-Type", "text/plain").send("name=Depot");
    expect(typed.status).toBe(415);
    expect(typed.body.error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    const wrong = await t.as(w.org.token).delete(w.base);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe("GET, PATCH");
    expect(wrong.body.error.message).toContain(`/api/organizations/${w.org.id}`);
    const unknown = await t.as(w.org.token).get("/api/nothing-here");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("No route for GET /api/nothing-here");
  });

  it("answers 401 before reading anything when a path needs a token", async () => {
    const res = await t.http.get("/api/timesheets?startDate=2026-03-01&endDate=2026-03-02");
    expect(res.status).toBe(401);
  });

  it("names the shift in the way of an overlapping one: its id and times", async () => {
    const api = t.as(w.org.token);
    const shift = { employeeId: w.worker.id, locationId: w.locationId, roleId: w.roleId };
    const first = await api.post("/api/timesheets", { ...shift, startTime: "2026-03-03T09:00:00Z", endTime: "2026-03-03T17:00:00Z" });
    expect(first.status).toBe(201);
    const second = await api.post("/api/timesheets", { ...shift, startTime: "2026-03-03T16:00:00Z", endTime: "2026-03-03T20:00:00Z" });
    expect(second.status).toBe(409);
    expect(second.body.error.message).toContain(first.body.id);
    expect(first.body.startTime).toBe("2026-03-03T04:00:00.000-05:00");
    expect(second.body.error.details).toEqual(
      expect.arrayContaining([
        { field: "conflictingShift.id", message: first.body.id },
        // Local, with the offset, as the shift's own fields are.
        { field: "conflictingShift.startTime", message: first.body.startTime },
        { field: "conflictingShift.endTime", message: first.body.endTime },
      ]),
    );
  });

  it("serves over REST what GraphQL had alone: permissions, one break type, the accrual run and a worker policy's ledger", async () => {
    const api = t.as(w.org.token);
    const permissions = await api.get(`${w.base}/permissions`);
    expect(permissions.status).toBe(200);
    expect(permissions.body).toEqual(expect.arrayContaining([expect.objectContaining({ name: "breaks:read", description: expect.any(String) })]));

    const created = await api.post(`${w.base}/locations/${w.locationId}/breaks`, {
      name: "Lunch",
      durationMinutes: 30,
      frequencyMinutes: 0,
      paid: false,
      mandatory: false,
      enabled: true,
    });
    const read = await api.get(`${w.base}/locations/${w.locationId}/breaks/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: created.body.id, name: "Lunch", locationId: w.locationId });
    expect((await api.get(`${w.base}/locations/${w.locationId}/breaks/${w.roleId}`)).status).toBe(404);
    const viaGraphql = await t.gql(w.org.token, "query($l: ID!, $id: ID!) { breakType(locationId: $l, id: $id) { name } }", {
      l: w.locationId,
      id: created.body.id,
    });
    expect(viaGraphql.data?.breakType).toEqual({ name: "Lunch" });

    const policyId = await activePolicy(t, w, {
      defaultSettings: { assignedStaff: { type: "All" } },
      limitSettings: { isFixedAmount: true, fixedAmount: { hours: 40, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Sunday" } },
    });
    const run = await api.post(`${w.base}/time-off-accruals`, { until: "2026-03-16" });
    expect(run.status).toBe(200);
    expect(run.body).toEqual({ entries: expect.any(Number), workerPolicies: expect.any(Number) });
    const again = await api.post(`${w.base}/time-off-accruals`, { until: "2026-03-16" });
    expect(again.body.entries).toBe(0);
    expect((await api.post(`${w.base}/time-off-accruals`, { untl: "2026-03-02" })).body.error.details).toEqual([
      { field: "untl", message: "untl is not a field of this body; did you mean until?" },
    ]);

    const workerPolicy = (await api.get(`${w.base}/worker-policies?policyId=${policyId}&workerId=${w.worker.id}`)).body[0];
    const ledger = await api.get(`${w.base}/worker-policies/${workerPolicy.id}/ledger`);
    expect(ledger.status).toBe(200);
    const sum = (ledger.body as { hours: number; workerPolicyId: string }[]).reduce((total, row) => total + row.hours, 0);
    expect(sum).toBeCloseTo(workerPolicy.hoursBalance, 2);
    expect((await t.as(w.worker.token).get(`${w.base}/worker-policies/${workerPolicy.id}/ledger`)).status).toBe(200);
  });
});
