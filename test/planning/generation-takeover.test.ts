import { TestService } from "../support/harness";
import { ServiceProcess } from "../support/service-process";
import { generationPlace } from "./support";

// A claim is a lease in the database, taken with SKIP LOCKED: across processes only on PostgreSQL.
const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

const until = async <T>(read: () => Promise<T | null | undefined>, what: string): Promise<T> => {
  for (let i = 0; i < 600; i++) {
    const value = await read();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
};

describe("a generation whose process dies", () => {
  let t: TestService;
  beforeAll(async () => (t = await TestService.start()));
  afterAll(() => t?.stop());

  onPostgres("is taken up again by another process once its lease runs out, and written once", async () => {
    const p = await generationPlace(t, "Taken over");
    for (let i = 0; i < 8; i++) await p.worker();
    const day = await p.template("Day", "09:00", "17:00");
    const dates = Array.from({ length: 28 }, (_, d) => new Date(Date.UTC(2026, 2, 23 + d)).toISOString().slice(0, 10));
    await p.cover(
      dates[0],
      dates[27],
      dates.map((date) => ({ date, templateId: day, count: 3, underWeight: 100, overWeight: 1 })),
    );
    const queued = await t
      .as(p.manager)
      .post(`${p.base}/schedules/generate`, { startDate: dates[0], endDate: dates[27], timeLimitSeconds: 4, defaultLimits: { maxConsecutiveShifts: 5 } });
    expect(queued.status).toBe(202);
    const row = () =>
      t.runtime.db
        .query("SELECT status, claimed_by, progress, attempts FROM schedule_generations WHERE id = $1", [queued.body.id])
        .then((r: { status: string; claimed_by: string | null; progress: unknown; attempts: number }[]) => r[0]);

    const doomed = await ServiceProcess.start(t.databaseUrl!, { SCHEDULED_JOBS: "on", GENERATION_LEASE_SECONDS: "2" });
    const claimed = await until(async () => {
      const r = await row();
      return r.status === "RUNNING" && r.progress ? r : null;
    }, "the other process to be searching");
    expect(claimed.claimed_by).not.toContain(`:${process.pid}:`);
    doomed.child.kill("SIGKILL");
    await new Promise((r) => doomed.child.once("exit", r));
    expect((await row()).status).toBe("RUNNING");

    // This process takes it up once the dead one's lease has run out.
    await until(() => t.runtime.services.scheduleGenerations.runNext(), "the lease to run out");
    const done = await row();
    expect(done).toMatchObject({ status: "SUCCEEDED", attempts: 2 });
    expect(done.claimed_by).toBe(t.runtime.services.scheduleGenerations.processId);
    const drafts = await t.runtime.db.query("SELECT count(*)::int AS n FROM schedule_drafts WHERE generation_id = $1", [queued.body.id]);
    expect(drafts[0].n).toBe(3 * 28);
  });
});
