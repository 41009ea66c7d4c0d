import request from "supertest";
import { TestService } from "../support/harness";
import { ServiceProcess } from "../support/service-process";
import { scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";

// Row locks prove nothing on PGlite's single connection: these run on PostgreSQL only.
const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

describe("open shifts are never overbooked", () => {
  let t: TestService;
  let w: ScheduleWorkplace;
  let day = 0;
  beforeAll(async () => {
    t = await TestService.start();
    w = await scheduleWorkplace(t);
  });
  afterAll(() => t?.stop());

  async function publishedShift(staffCountRequired: number, requireApproval: boolean) {
    day += 1;
    const date = `2026-04-${String(day).padStart(2, "0")}`;
    const api = t.as(w.manager);
    const created = await api.post(`${w.base}/open-shifts`, {
      roleId: w.roleId,
      startDate: `${date}T09:00:00`,
      endDate: `${date}T17:00:00`,
      staffCountRequired,
      requireApproval,
    });
    await api.post(`${w.base}/schedules/publish`, { startDate: date, endDate: date });
    return { id: created.body.id as string, date, path: `${w.base}/open-shifts/${created.body.id}` };
  }

  async function workers(n: number) {
    const list = [];
    for (let i = 0; i < n; i++) list.push(await w.worker());
    return list;
  }

  async function entriesOf(shiftId: string): Promise<number> {
    const rows = await t.runtime.db.query("SELECT count(*)::int AS n FROM schedule_entries WHERE open_shift_id = $1 AND deleted_at IS NULL", [shiftId]);
    return rows[0].n;
  }

  function tally(statuses: { status: number; body: { status?: string; error?: { code: string } } }[]) {
    return {
      accepted: statuses.filter((r) => r.status === 200 && r.body.status === "ACCEPTED").length,
      full: statuses.filter((r) => r.status === 409 && r.body.error?.code === "OPEN_SHIFT_FULL").length,
    };
  }

  onPostgres("forty workers claim a shift that needs three, all at once: three accepted, thirty-seven OPEN_SHIFT_FULL", async () => {
    const shift = await publishedShift(3, false);
    const crowd = await workers(40);
    const results = await Promise.all(crowd.map((x) => t.as(x.token).post(`${shift.path}/claim`)));
    expect(tally(results)).toEqual({ accepted: 3, full: 37 });
    expect(await entriesOf(shift.id)).toBe(3);
    const state = (await t.as(w.manager).get(shift.path)).body;
    expect(state.isFullyClaimed).toBe(true);
    expect(state.preferences.filter((p: { status: string }) => p.status === "ACCEPTED")).toHaveLength(3);
  });

  onPostgres("two bulk acceptances of the same five pending preferences on a shift that needs two accept two", async () => {
    const shift = await publishedShift(2, true);
    const five = await workers(5);
    const ids: string[] = [];
    for (const x of five) ids.push((await t.as(x.token).post(`${shift.path}/claim`)).body.id);
    const bulk = (order: string[]) => t.as(w.manager).post(`${w.base}/open-shifts/preferences/bulk-assign`, { preferenceIds: order });
    const [a, b] = await Promise.all([bulk(ids), bulk([...ids].reverse())]);
    const results = [...a.body.results, ...b.body.results] as { ok: boolean; error: { code: string } | null }[];
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(results.filter((r) => !r.ok).every((r) => r.error!.code === "OPEN_SHIFT_FULL" || r.error!.code === "CONFLICT")).toBe(true);
    expect(await entriesOf(shift.id)).toBe(2);
    const state = (await t.as(w.manager).get(shift.path)).body;
    expect(state.preferences.filter((p: { status: string }) => p.status === "ACCEPTED")).toHaveLength(2);
    expect(state.preferences.filter((p: { status: string }) => p.status === "PENDING")).toHaveLength(3);
  });

  onPostgres("the same claim race across two service processes", async () => {
    const second = await ServiceProcess.start(t.databaseUrl!);
    try {
      const shift = await publishedShift(3, false);
      const crowd = await workers(40);
      // The second process runs on the real clock: its callers take their tokens from it.
      const viaSecond = async (staffId: string) =>
        (await request(second.url).post("/api/auth/token-exchange").send({ apiKey: w.org.apiKey, staffId })).body.accessToken as string;
      const callers = await Promise.all(
        crowd.map(async (x, i) => (i % 2 === 0 ? { http: t.http, token: x.token } : { http: request(second.url), token: await viaSecond(x.id) })),
      );
      const results = await Promise.all(callers.map((c) => c.http.post(`${shift.path}/claim`).set("Authorization", `Bearer ${c.token}`).send({})));
      expect(tally(results)).toEqual({ accepted: 3, full: 37 });
      expect(await entriesOf(shift.id)).toBe(3);
    } finally {
      await second.stop();
    }
  });
});
