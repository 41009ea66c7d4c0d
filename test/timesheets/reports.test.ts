import { TestService } from "../support/harness";
import { addLocation, workplace, Workplace } from "../support/workplace";

describe("shift reports and overtime settings", () => {
  let t: TestService;
  let w: Workplace;
  let annex: string;
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-04-01T12:00:00.000Z" });
    w = await workplace(t, "America/New_York", 20);
    annex = await addLocation(t, w.org, "America/New_York");
    const api = t.as(w.org.token);
    // Monday 2 March to Friday 6 March 2026: five shifts of nine hours, Thursday at the annex.
    for (const day of ["02", "03", "04", "05", "06"]) {
      const res = await api.post("/api/timesheets", {
        employeeId: w.workerId,
        locationId: day === "05" ? annex : w.locationId,
        roleId: w.roleId,
        startTime: `2026-03-${day}T08:00:00`,
        endTime: `2026-03-${day}T17:00:00`,
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => t.stop());

  const api = () => t.as(w.org.token);

  it("starts with the default settings and changes them", async () => {
    expect((await api().get("/api/timesheets/settings")).body).toEqual({
      weeklyOvertimeHours: 40,
      dailyOvertimeHours: null,
      overtimeRate: 1.5,
      weekStart: "Monday",
      updatedAt: null,
    });
    expect((await api().patch("/api/timesheets/settings", { weekStart: "Funday" })).status).toBe(400);
    expect((await api().patch("/api/timesheets/settings", { weeklyOvertimeHours: 0 })).status).toBe(400);
    expect((await t.as(w.workerToken).patch("/api/timesheets/settings", { weeklyOvertimeHours: 30 })).status).toBe(403);
  });

  it("counts weekly overtime beyond 40 hours at 1.5 times the wage", async () => {
    const res = await api().get("/api/timesheets/reports/employees?startDate=2026-03-02&endDate=2026-03-08");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({
        employeeId: w.workerId,
        externalEmployeeId: "E-1",
        payrollId: "P-1",
        shifts: 5,
        totalHours: 45,
        regularHours: 40,
        overtimeHours: 5,
        laborCost: 950,
        paidBreakMinutes: 0,
        unpaidBreakMinutes: 0,
        mandatoryBreakViolations: 0,
      }),
    ]);
  });

  it("adds a daily threshold and counts the week from its start even when the range begins later", async () => {
    const changed = await api().patch("/api/timesheets/settings", { weeklyOvertimeHours: 36, dailyOvertimeHours: 8 });
    expect(changed.body).toMatchObject({ weeklyOvertimeHours: 36, dailyOvertimeHours: 8, weekStart: "Monday", updatedAt: expect.any(String) });
    const week = (await api().get("/api/timesheets/reports/employees?startDate=2026-03-02&endDate=2026-03-08")).body[0];
    expect(week).toMatchObject({ regularHours: 36, overtimeHours: 9, laborCost: 36 * 20 + 9 * 30 });
    // Friday alone: Monday to Thursday already reached 32 regular hours.
    const friday = (await api().get("/api/timesheets/reports/employees?startDate=2026-03-06&endDate=2026-03-06")).body[0];
    expect(friday).toMatchObject({ shifts: 1, regularHours: 4, overtimeHours: 5 });
    await api().patch("/api/timesheets/settings", { weeklyOvertimeHours: 40, dailyOvertimeHours: null, weekStart: "Thursday" });
    const split = (await api().get("/api/timesheets/reports/employees?startDate=2026-03-02&endDate=2026-03-06")).body[0];
    expect(split).toMatchObject({ overtimeHours: 0, regularHours: 45 });
    await api().patch("/api/timesheets/settings", { weekStart: "Monday" });
  });

  it("groups hours and labor cost by location, role and day", async () => {
    const byLocation = (await api().get("/api/timesheets/reports?startDate=2026-03-02&endDate=2026-03-08&groupBy=location")).body;
    expect(byLocation.groupBy).toBe("location");
    expect(byLocation.groups.map((g: { key: string; shifts: number }) => [g.key, g.shifts]).sort()).toEqual(
      [
        [annex, 1],
        [w.locationId, 4],
      ].sort(),
    );
    expect(byLocation.totals).toMatchObject({ shifts: 5, totalHours: 45, overtimeHours: 5, laborCost: 950 });
    const byRole = (await api().get("/api/timesheets/reports?startDate=2026-03-02&endDate=2026-03-08&groupBy=role")).body;
    expect(byRole.groups).toEqual([expect.objectContaining({ key: w.roleId, label: "Cashier", shifts: 5 })]);
    const byDay = (await api().get(`/api/timesheets/reports?startDate=2026-03-02&endDate=2026-03-08&locationId=${annex}`)).body;
    expect(byDay.groups).toEqual([expect.objectContaining({ key: "2026-03-05", label: "2026-03-05", totalHours: 9 })]);
    expect((await api().get("/api/timesheets/reports?startDate=2026-03-02&endDate=2026-03-08&groupBy=week")).status).toBe(400);
    expect((await t.as(w.workerToken).get("/api/timesheets/reports?startDate=2026-03-02&endDate=2026-03-08")).status).toBe(403);
  });

  it("reports shifts that went too long without a mandatory break", async () => {
    const other = await workplace(t, "Europe/London", 12);
    const a = t.as(other.org.token);
    const meal = (
      await a.post(`/api/organizations/${other.org.id}/locations/${other.locationId}/breaks`, {
        name: "Meal",
        durationMinutes: 30,
        frequencyMinutes: 300,
        mandatory: true,
      })
    ).body;
    const mk = (day: string, breaks: object[]) =>
      a.post("/api/timesheets", {
        employeeId: other.workerId,
        locationId: other.locationId,
        roleId: other.roleId,
        startTime: `2026-03-${day}T08:00:00`,
        endTime: `2026-03-${day}T17:00:00`,
        breaks,
      });
    await mk("10", []);
    await mk("11", [{ startTime: "2026-03-11T12:00:00", endTime: "2026-03-11T12:30:00", typeId: meal.id }]);
    await mk("12", [{ startTime: "2026-03-12T11:00:00", endTime: "2026-03-12T11:20:00", typeId: meal.id }]);
    const report = (await a.get("/api/timesheets/reports/employees?startDate=2026-03-10&endDate=2026-03-12")).body[0];
    // 10th: nine hours without a meal; 12th: the meal was too short; 11th: fine.
    expect(report).toMatchObject({ shifts: 3, mandatoryBreakViolations: 2, unpaidBreakMinutes: 50 });
    const gql = await t.gql(
      other.org.token,
      `{ shiftReport(startDate: "2026-03-10", endDate: "2026-03-12", groupBy: day) { groups { key mandatoryBreakViolations } } }`,
    );
    expect(gql.data!.shiftReport.groups).toEqual([
      { key: "2026-03-10", mandatoryBreakViolations: 1 },
      { key: "2026-03-11", mandatoryBreakViolations: 0 },
      { key: "2026-03-12", mandatoryBreakViolations: 1 },
    ]);
  });
});
