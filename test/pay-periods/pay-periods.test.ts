import { periodContaining, periodsBetween, PayFrequency } from "../../src/modules/pay-periods/pay-period.rules";
import { TestService } from "../support/harness";
import { workplace, Workplace } from "../support/workplace";

describe("pay periods", () => {
  it("runs semimonthly periods 1st–15th and 16th–end, across February of a leap year and another", () => {
    const semimonthly = { frequency: PayFrequency.SEMIMONTHLY, anchorDate: "2026-01-01" };
    expect(periodsBetween(semimonthly, "2026-02-10", "2026-03-01")).toEqual([
      { start: "2026-02-01", end: "2026-02-15" },
      { start: "2026-02-16", end: "2026-02-28" },
      { start: "2026-03-01", end: "2026-03-15" },
    ]);
    expect(periodContaining(semimonthly, "2028-02-29")).toEqual({ start: "2028-02-16", end: "2028-02-29" });
    expect(periodContaining({ frequency: PayFrequency.BIWEEKLY, anchorDate: "2026-01-05" }, "2026-01-04")).toEqual({ start: "2025-12-22", end: "2026-01-04" });
    expect(periodContaining({ frequency: PayFrequency.BIWEEKLY, anchorDate: "2026-01-05" }, "2026-01-19")).toEqual({ start: "2026-01-19", end: "2026-02-01" });
    expect(periodContaining({ frequency: PayFrequency.MONTHLY, anchorDate: "2026-01-01" }, "2026-02-14")).toEqual({ start: "2026-02-01", end: "2026-02-28" });
  });

  describe("timesheet approval and closing", () => {
    let t: TestService;
    let w: Workplace;
    let manager: ReturnType<TestService["as"]>;
    const period = () => `${w.orgBase}/pay-periods/2026-03-01`;
    const sheet = (action: string, token = w.manager!.token) => t.as(token).post(`${period()}/timesheets/${w.workerId}/${action}`);

    beforeAll(async () => {
      t = await TestService.start({ now: "2026-03-02T12:00:00.000Z" });
      w = await workplace(t, "UTC", 20, { manager: {} });
      manager = t.as(w.manager!.token);
      expect((await manager.put(`${w.orgBase}/pay-schedule`, { frequency: "SEMIMONTHLY", anchorDate: "2026-01-01" })).status).toBe(200);
      expect((await manager.put(`${w.orgBase}/attendance-policy`, { noShowAfterMinutes: 30 })).body.enabled).toBe(true);
    });
    afterAll(() => t?.stop());

    it("lists the periods of a range, February's second half ending on the 28th", async () => {
      const periods = await manager.get(`${w.orgBase}/pay-periods?from=2026-02-20&to=2026-03-20`);
      expect(periods.body.map((p: { startDate: string; endDate: string }) => `${p.startDate}..${p.endDate}`)).toEqual([
        "2026-02-16..2026-02-28",
        "2026-03-01..2026-03-15",
        "2026-03-16..2026-03-31",
      ]);
      expect((await manager.get(`${w.orgBase}/pay-periods/2026-03-02/timesheets`)).status).toBe(404);
    });

    it("refuses approval while a critical exception is OPEN, allows it once excused, then freezes the shifts until reopened", async () => {
      const schedules = `${w.orgBase}/locations/${w.locationId}/schedules`;
      await manager.post(`${schedules}/drafts`, { workerId: w.workerId, roleId: w.roleId, startTime: "2026-03-02T08:00:00Z", endTime: "2026-03-02T11:00:00Z" });
      await manager.post(`${schedules}/publish`, { startDate: "2026-03-02", endDate: "2026-03-02" });
      expect(await t.runtime.services.attendanceExceptions.detect()).toEqual({ noShows: 1, missedClockOuts: 0 });
      expect(await t.runtime.services.attendanceExceptions.detect()).toEqual({ noShows: 0, missedClockOuts: 0 });
      const shift = await manager.post("/api/timesheets", {
        employeeId: w.workerId,
        locationId: w.locationId,
        roleId: w.roleId,
        startTime: "2026-03-03T09:00:00Z",
        endTime: "2026-03-03T17:00:00Z",
      });
      expect(shift.status).toBe(201);

      expect((await sheet("submit", w.workerToken)).body).toMatchObject({ status: "SUBMITTED", shiftCount: 1, openCriticalExceptions: 1 });
      const refused = await sheet("approve");
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe("OPEN_EXCEPTIONS");
      expect((await sheet("approve", w.workerToken)).status).toBe(403);

      const [noShow] = (await manager.get(`${w.orgBase}/attendance-exceptions?startDate=2026-03-02&endDate=2026-03-02&kind=NO_SHOW`)).body;
      const mine = await t.as(w.workerToken).get(`${w.orgBase}/attendance-exceptions/${noShow.id}`);
      expect(mine.body).toMatchObject({ kind: "NO_SHOW", staffId: w.workerId, status: "OPEN" });
      expect((await t.as(w.workerToken).patch(`${w.orgBase}/attendance-exceptions/${noShow.id}`, { status: "EXCUSED", note: "Sick" })).status).toBe(403);
      const excused = await manager.patch(`${w.orgBase}/attendance-exceptions/${noShow.id}`, { status: "EXCUSED", note: "Called in sick at 7:30" });
      expect(excused.body).toMatchObject({ status: "EXCUSED", resolution: { note: "Called in sick at 7:30", resolvedBy: w.manager!.id } });
      expect((await manager.patch(`${w.orgBase}/attendance-exceptions/${noShow.id}`, { status: "RESOLVED", note: "again" })).status).toBe(409);

      const approved = await sheet("approve");
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ status: "APPROVED", approvedBy: w.manager!.id });
      const frozen = await manager.patch(`/api/timesheets/${shift.body.id}`, { endTime: "2026-03-03T18:00:00Z" });
      expect(frozen.status).toBe(409);
      expect(frozen.body.error.code).toBe("TIMESHEET_APPROVED");
      const added = await manager.post("/api/timesheets", {
        employeeId: w.workerId,
        locationId: w.locationId,
        roleId: w.roleId,
        startTime: "2026-03-04T09:00:00Z",
        endTime: "2026-03-04T17:00:00Z",
      });
      expect(added.body.error.code).toBe("TIMESHEET_APPROVED");
      // The time clock too, which holds the worker's row itself before the check.
      const clockedIn = await manager.post("/api/time-tracking/clock-in", {
        workerId: w.workerId,
        locationId: w.locationId,
        roleId: w.roleId,
        time: "2026-03-02T11:30:00Z",
      });
      expect([clockedIn.status, clockedIn.body.error?.code]).toEqual([409, "TIMESHEET_APPROVED"]);
      // Outside the period the worker's shifts are free.
      expect(
        (
          await manager.post("/api/timesheets", {
            employeeId: w.workerId,
            locationId: w.locationId,
            roleId: w.roleId,
            startTime: "2026-03-16T09:00:00Z",
            endTime: "2026-03-16T17:00:00Z",
          })
        ).status,
      ).toBe(201);

      const events = await t.runtime.db.query(
        "SELECT type FROM events WHERE organization_id = $1 AND type LIKE ANY (ARRAY['attendance.%', 'timesheet.approved']) ORDER BY sequence",
        [w.org.id],
      );
      expect(events.map((e: { type: string }) => e.type)).toEqual(["attendance.exception.created", "attendance.exception.updated", "timesheet.approved"]);

      expect((await sheet("reopen")).body.status).toBe("OPEN");
      expect((await manager.patch(`/api/timesheets/${shift.body.id}`, { endTime: "2026-03-03T18:00:00Z" })).status).toBe(200);
    });

    it("exports and reports a pay period by its start date: its days only", async () => {
      const exported = await manager.get("/api/timesheets/export?payPeriod=2026-03-01&format=json");
      expect(exported.status).toBe(200);
      expect(exported.headers["content-disposition"]).toContain("timesheets-2026-03-01-2026-03-15.json");
      expect(JSON.parse(exported.text).map((r: { startTime: string }) => r.startTime.slice(0, 10))).toEqual(["2026-03-03"]);
      const report = await manager.get("/api/timesheets/reports?payPeriod=2026-03-16&groupBy=day");
      expect(report.body.groups.map((g: { key: string }) => g.key)).toEqual(["2026-03-16"]);
      expect((await manager.get("/api/timesheets/reports/employees?payPeriod=2026-03-01&startDate=2026-03-01")).body.error.details[0].field).toBe("payPeriod");
      expect((await manager.get("/api/timesheets/reports/employees?payPeriod=2026-03-02")).status).toBe(404);
    });

    it("refuses to close while someone is not approved, naming them; a forced close keeps its reason in the audit trail and locks every day", async () => {
      const other = await t.staffWithToken(w.org, "Worker", {});
      const refused = await manager.post(`${period()}/close`, {});
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe("NOT_APPROVED");
      expect(refused.body.error.details.map((d: { message: string }) => d.message)).toEqual(
        expect.arrayContaining([w.workerId, other.staff.id, w.manager!.id]),
      );
      expect((await manager.post(`${period()}/close`, { force: true })).status).toBe(400);

      const closed = await manager.post(`${period()}/close`, { force: true, reason: "Payroll cut-off; late sheets follow next period" });
      expect(closed.status).toBe(200);
      expect(closed.body).toMatchObject({ closed: true, forced: true, reason: "Payroll cut-off; late sheets follow next period" });
      expect((await manager.post(`${period()}/close`, { force: true, reason: "again" })).status).toBe(409);

      const audit = await manager.get(`${w.orgBase}/audit-events?resourceType=pay_period_closes`);
      expect(audit.body).toEqual([
        expect.objectContaining({
          action: "insert",
          actorStaffId: w.manager!.id,
          after: expect.objectContaining({ forced: true, reason: "Payroll cut-off; late sheets follow next period" }),
        }),
      ]);
      const locked = await t.runtime.db.query(
        "SELECT count(*)::int AS n FROM locked_days WHERE organization_id = $1 AND day BETWEEN '2026-03-01' AND '2026-03-15'",
        [w.org.id],
      );
      expect(locked[0].n).toBe(15);
      const shift = await manager.post("/api/timesheets", {
        employeeId: other.staff.id,
        locationId: w.locationId,
        roleId: w.roleId,
        startTime: "2026-03-05T09:00:00Z",
        endTime: "2026-03-05T17:00:00Z",
      });
      expect(shift.body.error.code).toBe("SHIFT_LOCKED");
      const [event] = await t.runtime.db.query("SELECT object FROM events WHERE organization_id = $1 AND type = 'pay_period.closed'", [w.org.id]);
      expect(event.object).toMatchObject({ forced: true, period_start: "2026-03-01" });
    });
  });
});
