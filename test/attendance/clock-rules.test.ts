import { TestService } from "../support/harness";
import { addPastEntries } from "../support/history";
import { countStatements, planOf } from "../support/statements";
import { workplace, Workplace } from "../support/workplace";

const CENTRE = { latitude: 40.7128, longitude: -74.006 };
/** Metres per degree of latitude on the mean Earth sphere. */
const METERS_PER_DEGREE = 111_195;

describe("clock-in rules", () => {
  let t: TestService;
  let w: Workplace;
  let rules: string;
  const worker = () => t.as(w.workerToken);
  const clockIn = (body: object = {}, device?: string) => {
    const req = t.http.post("/api/time-tracking/clock-in").set("Authorization", `Bearer ${w.workerToken}`);
    if (device) req.set("X-Clock-Device", device);
    return req.send({ locationId: w.locationId, roleId: w.roleId, ...body });
  };
  /** Clocks the worker out a minute later, leaving the clock a minute on. */
  const clockOutLater = async (body: object = {}, device?: string, forwardedFor?: string) => {
    t.clock.advance(60_000);
    const req = t.http.post("/api/time-tracking/clock-out").set("Authorization", `Bearer ${w.workerToken}`);
    if (device) req.set("X-Clock-Device", device);
    if (forwardedFor) req.set("X-Forwarded-For", forwardedFor);
    const res = await req.send(body);
    expect(res.status).toBe(200);
    t.clock.advance(60_000);
  };
  const exceptions = async (query = "") =>
    (await t.as(w.manager!.token).get(`${w.orgBase}/attendance-exceptions?startDate=2026-03-01&endDate=2026-03-31${query}`)).body as {
      kind: string;
      message: string;
      severity: string;
    }[];

  /** Publishes an 8-hour entry of the worker starting `minutes` from now. */
  const publishEntryIn = async (minutes: number) => {
    const api = t.as(w.manager!.token);
    const start = new Date(t.clock.now().getTime() + minutes * 60_000);
    const schedules = `${w.orgBase}/locations/${w.locationId}/schedules`;
    await api.post(`${schedules}/drafts`, {
      workerId: w.workerId,
      roleId: w.roleId,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 8 * 3_600_000).toISOString(),
    });
    const day = start.toISOString().slice(0, 10);
    expect((await api.post(`${schedules}/publish`, { startDate: day, endDate: day })).status).toBe(200);
  };

  beforeAll(async () => {
    t = await TestService.start();
    w = await workplace(t, "UTC", 20, { manager: {} });
    rules = `${w.orgBase}/locations/${w.locationId}/clock-rules`;
  });
  afterAll(() => t?.stop());

  it("refuses a punch 80 m from the centre of a 50 m fence, naming the distance; takes it and records an exception under FLAG", async () => {
    const fence = { geofence: { ...CENTRE, radiusMeters: 50 } };
    expect((await t.as(w.manager!.token).put(rules, fence)).body).toMatchObject({ geofence: { radiusMeters: 50 }, enforcement: "BLOCK" });
    const away = { latitude: CENTRE.latitude + 80 / METERS_PER_DEGREE, longitude: CENTRE.longitude, accuracyMeters: 10 };
    const refused = await clockIn(away);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("CLOCK_RULE");
    expect(refused.body.error.details).toEqual([expect.objectContaining({ ruleId: "OUTSIDE_GEOFENCE" })]);
    expect(refused.body.error.details[0].message).toContain("80 m from the location, outside its 50 m geofence");
    expect(await clockIn({}).then((r) => r.body.error.details[0].message)).toContain("needs latitude and longitude");
    // Inside once the fix's accuracy is counted: 80 m away, accurate to 35 m.
    const inside = await clockIn({ ...away, accuracyMeters: 35 });
    expect(inside.status).toBe(201);
    await clockOutLater({ ...away, accuracyMeters: 35 });
    expect(await exceptions()).toEqual([]);

    await t.as(w.manager!.token).put(rules, { ...fence, enforcement: "FLAG" });
    const flagged = await clockIn(away);
    expect(flagged.status).toBe(201);
    await clockOutLater(away);
    const found = await exceptions("&kind=CLOCK_RULE");
    expect(found).toEqual([expect.objectContaining({ kind: "CLOCK_RULE", severity: "critical", status: "OPEN", shiftId: flagged.body.id })]);
    expect(found[0].message).toContain("OUTSIDE_GEOFENCE: The punch is 80 m");
  });

  it("matches the caller's address against IPv6 networks, behind a proxy only where Express trusts it", async () => {
    const api = t.as(w.manager!.token);
    expect((await api.put(rules, { allowedNetworks: ["2001:DB8::/32", "x"] })).body.error.details).toEqual([
      expect.objectContaining({ field: "allowedNetworks.1" }),
    ]);
    expect((await api.put(rules, { allowedNetworks: ["2001:DB8::/32"] })).body.allowedNetworks).toEqual(["2001:db8::/32"]);
    const forwarded = () => clockIn().set("X-Forwarded-For", "2001:db8::7");
    const untrusted = await forwarded();
    expect(untrusted.status).toBe(403);
    expect(untrusted.body.error.details[0]).toMatchObject({ ruleId: "NETWORK_NOT_ALLOWED" });
    expect(untrusted.body.error.details[0].message).toContain("127.0.0.1");
    t.runtime.app.set("trust proxy", "loopback");
    try {
      expect((await forwarded()).status).toBe(201);
      // Clock-out checks the same rules.
      t.clock.advance(60_000);
      const elsewhere = await t.as(w.workerToken).post("/api/time-tracking/clock-out", {}).set("X-Forwarded-For", "198.51.100.1");
      expect(elsewhere.body.error.details[0]).toMatchObject({ ruleId: "NETWORK_NOT_ALLOWED" });
      await clockOutLater({}, undefined, "2001:db8::7");
      const outside = await clockIn().set("X-Forwarded-For", "2001:db9::7");
      expect(outside.body.error.details[0].message).toContain("2001:db9::7");
    } finally {
      t.runtime.app.set("trust proxy", false);
    }
  });

  it("takes punches from a registered device only: unknown and revoked tokens are refused", async () => {
    const api = t.as(w.manager!.token);
    await api.put(rules, { requireDevice: true });
    const registered = await api.post(`${w.orgBase}/locations/${w.locationId}/clock-devices`, { name: "Front door kiosk" });
    expect(registered.status).toBe(201);
    const token = registered.body.token as string;
    expect(token).toMatch(/^wfd_/);
    const listed = await api.get(`${w.orgBase}/locations/${w.locationId}/clock-devices`);
    expect(JSON.stringify(listed.body)).not.toContain(token);
    const stored = await t.runtime.db.query("SELECT secret_hash FROM clock_devices WHERE id = $1", [registered.body.device.id]);
    expect(stored[0].secret_hash).not.toContain(token);

    expect((await clockIn()).body.error.details[0]).toMatchObject({ ruleId: "UNKNOWN_DEVICE", field: "X-Clock-Device" });
    expect((await clockIn({}, "wfd_not-a-device")).body.error.details[0].message).toContain("names no device");
    expect((await clockIn({}, token)).status).toBe(201);
    await clockOutLater({}, token);

    expect((await api.delete(`${w.orgBase}/locations/${w.locationId}/clock-devices/${registered.body.device.id}`)).status).toBe(204);
    const revoked = await clockIn({}, token);
    expect(revoked.status).toBe(403);
    expect(revoked.body.error.details[0].message).toBe('The device "Front door kiosk" was revoked');
  });

  it("refuses a clock-in 40 minutes before the scheduled start against a 15-minute window, and one without an entry where a schedule is required", async () => {
    const api = t.as(w.manager!.token);
    await api.put(rules, { earlyClockInMinutes: 15, requireSchedule: true });
    expect((await clockIn()).body.error.details[0]).toMatchObject({ ruleId: "NOT_SCHEDULED" });
    await publishEntryIn(40);
    const early = await clockIn();
    expect(early.status).toBe(403);
    expect(early.body.error.details[0]).toMatchObject({
      ruleId: "TOO_EARLY",
      message: "The clock-in is 40 minutes before the scheduled start; the location allows 15",
    });
    t.clock.advance(30 * 60_000);
    expect((await clockIn()).status).toBe(201);
    await clockOutLater();
  });

  it("lets a manager read rules and a worker neither read nor change them", async () => {
    expect((await worker().get(rules)).status).toBe(403);
    expect((await worker().put(rules, {})).status).toBe(403);
    expect((await t.as(w.manager!.token).put(rules, {})).body).toMatchObject({
      geofence: null,
      allowedNetworks: [],
      requireDevice: false,
      enforcement: "BLOCK",
    });
  });

  it("reads the rules, the attendance policy and the worker's entry in one statement a punch, and holds the worker's row once", async () => {
    // Past the earlier tests' entries; tokens run out with the clock.
    t.clock.advance(12 * 3_600_000);
    w.workerToken = await t.token(w.org.apiKey, w.workerId);
    w.manager!.token = await t.token(w.org.apiKey, w.manager!.id);
    const api = t.as(w.manager!.token);
    await api.put(rules, { earlyClockInMinutes: 15, enforcement: "FLAG" });
    await api.put(`${w.orgBase}/attendance-policy`, { earlyOutGraceMinutes: 5 });
    await publishEntryIn(40);
    /** The punch's statements that read what it is checked against, and those that lock the worker's row. */
    const punched = async (punch: () => Promise<{ status: number }>, status: number) => {
      const statements = countStatements();
      try {
        expect((await punch()).status).toBe(status);
        const sql = statements.sql;
        return {
          reads: sql.filter((q) => /clock_rules|attendance_policies|FROM schedule_entries/.test(q)).length,
          workerLocks: sql.filter((q) => /FROM staff_members .*FOR (SHARE|NO KEY UPDATE)/s.test(q)).length,
        };
      } finally {
        statements.stop();
      }
    };
    // 40 minutes early, flagged: the rules and the entry decide it.
    expect(await punched(() => clockIn(), 201)).toEqual({ reads: 1, workerLocks: 1 });
    // An hour in, seven before the entry ends: the policy and the entry decide it.
    t.clock.advance(3_600_000);
    w.workerToken = await t.token(w.org.apiKey, w.workerId);
    w.manager!.token = await t.token(w.org.apiKey, w.manager!.id);
    const out = () => t.http.post("/api/time-tracking/clock-out").set("Authorization", `Bearer ${w.workerToken}`).send({});
    expect(await punched(out, 200)).toEqual({ reads: 1, workerLocks: 1 });
    const found = await exceptions(`&kind=CLOCK_RULE`);
    expect(found.map((e) => e.message)).toContainEqual(expect.stringContaining("TOO_EARLY: The clock-in is 40 minutes before the scheduled start"));
    expect((await exceptions("&kind=EARLY_OUT")).map((e) => e.message)).toEqual([expect.stringContaining("minutes before the scheduled end (grace 5)")]);
  });

  it("matches a punch to its entry by span, however many entries the worker had before", async () => {
    // An entry a day for 2,000 days, years before the punch.
    await addPastEntries(t, { organizationId: w.org.id, locationId: w.locationId, workerId: w.workerId, roleId: w.roleId }, "2015-01-01T09:00:00Z", 2000);
    t.clock.advance(3_600_000);
    w.workerToken = await t.token(w.org.apiKey, w.workerId);
    const statements = countStatements();
    const punch = await clockIn();
    const sql = statements.sql;
    statements.stop();
    expect(punch.status).toBe(201);
    const context = sql.find((q) => /FROM schedule_entries/.test(q) && /clock_rules/.test(q))!;
    const plan = await planOf(t.runtime.db, context, [w.org.id, w.locationId, w.workerId, t.clock.now()]);
    expect(plan).toMatch(/"Index Cond":"[^"]*tstzrange\(start_time, end_time\) && /);
  });
});
