import { TestService } from "../support/harness";
import { ServiceProcess } from "../support/service-process";
import { connectionOutcome, Subscriber } from "../support/subscriber";
import { addWorker, workplace, Workplace } from "../support/workplace";

// Two service processes share events only through a PostgreSQL server's NOTIFY.
const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

const EVENTS = "subscription ($types: [String!]) { events(types: $types) { type data { object previousAttributes } } }";
const SHIFTS = "subscription ($locationId: ID) { shiftChanged(locationId: $locationId) { type data { object } } }";

describe("live subscriptions over graphql-ws", () => {
  let t: TestService;
  let w: Workplace;
  let url: string;
  const open: Subscriber[] = [];
  let day = 1;

  beforeAll(async () => {
    t = await TestService.start();
    w = await workplace(t);
    await new Promise<void>((resolve) => t.runtime.server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(t.runtime.server.address() as { port: number }).port}`;
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  afterAll(() => t.stop());

  async function subscribe(base: string, token: string | null, query: string, variables: Record<string, unknown> = {}) {
    const s = await Subscriber.start(base, token, query, variables);
    open.push(s);
    return s;
  }

  const shiftFor = async (employeeId: string) => {
    day += 1;
    const date = `2026-01-${String(day).padStart(2, "0")}`;
    const res = await t
      .as(w.org.token)
      .post("/api/timesheets", { employeeId, locationId: w.locationId, roleId: w.roleId, startTime: `${date}T09:00:00`, endTime: `${date}T17:00:00` });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  /**
   * Makes `change` until the subscriber has received something: the server takes a subscription a
   * moment after the connection is acknowledged, and a change committed before that is not its to see.
   */
  async function untilSubscribed(s: Subscriber, change: () => Promise<unknown>) {
    while (!s.received.length && !s.errors.length) await change();
    expect(s.errors).toEqual([]);
  }

  it("refuses a connection without a valid token", async () => {
    expect(await connectionOutcome(url, {})).toBe(4403);
    expect(await connectionOutcome(url, { authorization: "Bearer not.a.token" })).toBe(4403);
    expect(await connectionOutcome(url, { authorization: `Bearer ${w.org.token}` })).toBe("acknowledged");
  });

  it("sends only the event types asked for, as the event list has them", async () => {
    const s = await subscribe(url, w.org.token, EVENTS, { types: ["location.created"] });
    const api = t.as(w.org.token);
    let n = 0;
    await untilSubscribed(s, async () => {
      // A role before each location: the filter must leave its event out.
      expect((await api.post(`/api/organizations/${w.org.id}/roles`, { name: `Role ${++n}`, hourlyWage: 10 })).status).toBe(201);
      expect((await api.post(`/api/organizations/${w.org.id}/locations`, { name: `Site ${n}`, timezone: "UTC" })).status).toBe(201);
    });
    expect(s.received.map((e) => e.type)).toEqual(s.received.map(() => "location.created"));
    const [listed] = (await api.get(`/api/organizations/${w.org.id}/events?types=location.created`)).body.slice(-1);
    await s.until(() => s.received.some((e) => e.data.object.id === listed.data.object.id));
    expect(s.received.find((e) => e.data.object.id === listed.data.object.id)!.data).toEqual(listed.data);
  });

  it("never sends a worker another worker's shift", async () => {
    const other = await addWorker(t, w.org, { roleIds: [w.roleId], locationIds: [w.locationId] });
    const s = await subscribe(url, w.workerToken, SHIFTS, { locationId: w.locationId });
    await untilSubscribed(s, async () => {
      await shiftFor(other.staff.id);
      await shiftFor(w.workerId);
    });
    // Events reach a subscriber in commit order: once the worker has their own later shift, the other's was offered first.
    await shiftFor(other.staff.id);
    const mine = await shiftFor(w.workerId);
    await s.until(() => s.received.some((e) => e.data.object.id === mine));
    expect(new Set(s.received.map((e) => e.data.object.employeeId))).toEqual(new Set([w.workerId]));
  });

  it("sends the open shifts of the location asked for only", async () => {
    const api = t.as(w.org.token);
    const elsewhere = (await api.post(`/api/organizations/${w.org.id}/locations`, { name: "Across Town", timezone: "America/New_York" })).body.id as string;
    const s = await subscribe(url, w.org.token, "subscription ($locationId: ID) { openShiftChanged(locationId: $locationId) { type data { object } } }", {
      locationId: w.locationId,
    });
    const openShiftAt = async (locationId: string) => {
      day += 1;
      const date = `2026-05-${String(day).padStart(2, "0")}`;
      const res = await api.post(`/api/organizations/${w.org.id}/locations/${locationId}/open-shifts`, {
        roleId: w.roleId,
        startDate: `${date}T09:00:00`,
        endDate: `${date}T17:00:00`,
        staffCountRequired: 1,
      });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    await untilSubscribed(s, async () => {
      await openShiftAt(elsewhere);
      await openShiftAt(w.locationId);
    });
    // Events reach a subscriber in commit order: once the last one here has come, the one elsewhere was offered first.
    await openShiftAt(elsewhere);
    const last = await openShiftAt(w.locationId);
    await s.until(() => s.received.some((e) => e.data.object.id === last));
    expect(new Set(s.received.map((e) => `${e.type} ${e.data.object.locationId}`))).toEqual(new Set([`open_shift.created ${w.locationId}`]));
  });

  it("sends a worker their own schedule only, and refuses a token that is no staff member's", async () => {
    const other = await addWorker(t, w.org, { roleIds: [w.roleId], locationIds: [w.locationId] });
    const s = await subscribe(url, w.workerToken, "subscription { myScheduleChanged { type data { object } } }");
    const entries = `/api/organizations/${w.org.id}/locations/${w.locationId}/schedules`;
    const entryFor = async (workerId: string) => {
      day += 1;
      const date = `2026-04-${String(day).padStart(2, "0")}`;
      const res = await t.as(w.org.token).post(entries, { workerId, roleId: w.roleId, startTime: `${date}T09:00:00`, endTime: `${date}T17:00:00` });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    await untilSubscribed(s, async () => {
      await entryFor(other.staff.id);
      await entryFor(w.workerId);
    });
    await entryFor(other.staff.id);
    const mine = await entryFor(w.workerId);
    await s.until(() => s.received.some((e) => e.data.object.id === mine));
    expect(new Set(s.received.map((e) => `${e.type} ${e.data.object.workerId}`))).toEqual(new Set([`schedule_entry.created ${w.workerId}`]));

    const orgWide = await subscribe(url, w.org.token, "subscription { myScheduleChanged { type } }");
    await orgWide.until(() => orgWide.errors.length > 0);
    expect(JSON.stringify(orgWide.errors)).toContain("FORBIDDEN");
  });

  it("refuses what the subscriber may not follow, and anything but a subscription", async () => {
    const worker = await subscribe(url, w.workerToken, EVENTS);
    await worker.until(() => worker.errors.length > 0);
    expect(JSON.stringify(worker.errors)).toContain("events:read");
    const query = await subscribe(url, w.org.token, "{ locations(first: 1) { nodes { id } } }");
    await query.until(() => query.errors.length > 0);
    expect(JSON.stringify(query.errors)).toContain("Only subscriptions");
    const deep = await subscribe(url, w.org.token, `subscription { events { ${"a: type ".repeat(500)} } }`);
    await deep.until(() => deep.errors.length > 0);
    expect(deep.received).toEqual([]);
  });

  onPostgres("a subscriber connected to one process sees a change committed by another", async () => {
    const [a, b] = await Promise.all([ServiceProcess.start(t.databaseUrl, { LOG_LEVEL: "warn" }), ServiceProcess.start(t.databaseUrl, { LOG_LEVEL: "warn" })]);
    try {
      // The processes run on the real clock: a token of the test's fixed clock would have expired there.
      const exchanged = await fetch(`${a.url}/api/auth/token-exchange`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ apiKey: w.org.apiKey }),
      });
      const { accessToken: token } = (await exchanged.json()) as { accessToken: string };
      const s = await Subscriber.start(b.url, token, EVENTS, { types: ["location.created"] });
      try {
        const created: string[] = [];
        const post = async () => {
          const res = await fetch(`${a.url}/api/organizations/${w.org.id}/locations`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify({ name: `Across ${created.length}`, timezone: "UTC" }),
          });
          expect(res.status).toBe(201);
          created.push(((await res.json()) as { id: string }).id);
        };
        await untilSubscribed(s, post);
        expect(created).toContain(s.received[0].data.object.id);
      } finally {
        await s.close();
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
