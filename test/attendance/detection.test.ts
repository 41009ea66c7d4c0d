import request from "supertest";
import { TestService } from "../support/harness";
import { ServiceProcess } from "../support/service-process";
import { workplace, Workplace } from "../support/workplace";
import { until } from "../support/until";

// Two processes racing prove something only on PostgreSQL.
const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

describe("the detection of what did not happen", () => {
  let t: TestService;
  let w: Workplace;
  const found = (kind: string) =>
    t.runtime.db.query("SELECT id, subject_id FROM attendance_exceptions WHERE organization_id = $1 AND kind = $2", [w.org.id, kind]);

  afterEach(() => t?.stop());

  it("finds a missed clock-out once, after the scheduled end and the policy's minutes", async () => {
    t = await TestService.start({ now: "2026-03-02T12:00:00.000Z" });
    w = await workplace(t, "UTC", 20, { manager: {} });
    const manager = t.as(w.manager!.token);
    await manager.put(`${w.orgBase}/attendance-policy`, { missedClockOutAfterMinutes: 60, longShiftHours: 10 });
    const shift = await t.as(w.workerToken).post("/api/time-tracking/clock-in", { locationId: w.locationId, roleId: w.roleId });
    expect((await found("UNSCHEDULED_SHIFT")).length).toBe(1);
    t.clock.set("2026-03-02T22:59:00.000Z");
    expect(await t.runtime.services.attendanceExceptions.detect()).toEqual({ noShows: 0, missedClockOuts: 0 });
    t.clock.set("2026-03-02T23:00:00.000Z");
    expect(await t.runtime.services.attendanceExceptions.detect()).toEqual({ noShows: 0, missedClockOuts: 1 });
    expect(await t.runtime.services.attendanceExceptions.detect()).toEqual({ noShows: 0, missedClockOuts: 0 });
    expect(await found("MISSED_CLOCK_OUT")).toEqual([expect.objectContaining({ subject_id: shift.body.id })]);
    // Hours on, a fresh token.
    const out = await t.as(await t.token(w.org.apiKey, w.workerId)).post("/api/time-tracking/clock-out", {});
    expect(out.status).toBe(200);
    const long = await t.as(await t.token(w.org.apiKey)).get(`${w.orgBase}/attendance-exceptions?startDate=2026-03-02&endDate=2026-03-02&kind=LONG_SHIFT`);
    expect(long.body).toEqual([expect.objectContaining({ minutes: 60, severity: "warning" })]);
  });

  onPostgres("finds a no-show once when two service processes look at the same time", async () => {
    // The processes run on the system clock: the entry is placed against it.
    const now = Date.now();
    t = await TestService.start({ now: new Date(now).toISOString() });
    w = await workplace(t, "UTC", 20, { manager: {} });
    const manager = t.as(w.manager!.token);
    await manager.put(`${w.orgBase}/attendance-policy`, { noShowAfterMinutes: 15 });
    const start = new Date(now - 60 * 60_000);
    const schedules = `${w.orgBase}/locations/${w.locationId}/schedules`;
    await manager.post(`${schedules}/drafts`, {
      workerId: w.workerId,
      roleId: w.roleId,
      startTime: start.toISOString(),
      endTime: new Date(now + 60 * 60_000).toISOString(),
    });
    const days = [start.toISOString().slice(0, 10), new Date(now + 60 * 60_000).toISOString().slice(0, 10)];
    expect((await manager.post(`${schedules}/publish`, { startDate: days[0], endDate: days[1] })).status).toBe(200);

    const processes = await Promise.all([
      ServiceProcess.start(t.databaseUrl, { SCHEDULED_JOBS: "on" }),
      ServiceProcess.start(t.databaseUrl, { SCHEDULED_JOBS: "on" }),
    ]);
    try {
      // Each process runs the job at start; and once more by hand here, at the same moment as theirs.
      await Promise.all([t.runtime.services.attendanceExceptions.detect(), t.runtime.services.attendanceExceptions.detect()]);
      for (const p of processes) await until(() => /attendance-detection/.test(p.output()));
      expect(await found("NO_SHOW")).toHaveLength(1);
      const events = await t.runtime.db.query("SELECT count(*)::int AS n FROM events WHERE organization_id = $1 AND type = 'attendance.exception.created'", [
        w.org.id,
      ]);
      expect(events[0].n).toBe(1);
      const listed = await request(processes[1].url)
        .get(`${w.orgBase}/attendance-exceptions?startDate=${days[0]}&endDate=${days[1]}&kind=NO_SHOW`)
        .set("Authorization", `Bearer ${w.manager!.token}`);
      expect(listed.body).toEqual([expect.objectContaining({ staffId: w.workerId, status: "OPEN", severity: "critical" })]);
    } finally {
      await Promise.all(processes.map((p) => p.stop()));
    }
  });
});
