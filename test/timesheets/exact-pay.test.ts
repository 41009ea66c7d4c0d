import { TestService } from "../support/harness";
import { workplace, Workplace } from "../support/workplace";
import { expectRecomputable } from "./pay-checks";

describe("labor cost and export pay, exact until the one rounding", () => {
  let t: TestService;
  let w: Workplace;
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-04-01T12:00:00.000Z" });
    w = await workplace(t, "America/New_York", 18.75);
    const api = t.as(w.org.token);
    // Monday 2 to Friday 6 March 2026: nine hours with 30 unpaid minutes, 8.5 payable hours a day.
    for (const day of ["02", "03", "04", "05", "06"]) {
      const res = await api.post("/api/timesheets", {
        employeeId: w.workerId,
        locationId: w.locationId,
        roleId: w.roleId,
        startTime: `2026-03-${day}T08:00:00`,
        endTime: `2026-03-${day}T17:00:00`,
        breaks: [{ startTime: `2026-03-${day}T12:00:00`, endTime: `2026-03-${day}T12:30:00`, paid: false }],
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => t.stop());

  const api = () => t.as(w.org.token);
  const week = "startDate=2026-03-02&endDate=2026-03-08";

  it("costs 42.5 hours at 18.75 with weekly overtime beyond 40 at 820.31, not the sum of rounded shifts", async () => {
    // 40 × 18.75 + 2.5 × 18.75 × 1.5 = 820.3125
    const [employee] = (await api().get(`/api/timesheets/reports/employees?${week}`)).body;
    expect(employee).toMatchObject({ shifts: 5, totalHours: 42.5, regularHours: 40, overtimeHours: 2.5, unpaidBreakMinutes: 150, laborCost: 820.31 });
    const byDay = (await api().get(`/api/timesheets/reports?${week}&groupBy=day`)).body;
    expect(byDay.totals).toMatchObject({ totalHours: 42.5, laborCost: 820.31 });
    // Each day's own figure is rounded once too: 8.5 × 18.75 = 159.375 on the first four days.
    expect(byDay.groups.map((g: { laborCost: number }) => g.laborCost)).toEqual([159.38, 159.38, 159.38, 159.38, 182.81]);
    const gql = await t.gql(w.org.token, `{ shiftReport(startDate: "2026-03-02", endDate: "2026-03-08", groupBy: location) { totals { laborCost } } }`);
    expect(gql.data!.shiftReport.totals.laborCost).toBe(820.31);
  });

  it("costs the same hours with the daily eight-hour rule at 820.31 too", async () => {
    // 5 × (8 × 18.75 + 0.5 × 18.75 × 1.5) = 820.3125, however overtime falls across the days.
    expect((await api().patch("/api/timesheets/settings", { dailyOvertimeHours: 8 })).status).toBe(200);
    const [employee] = (await api().get(`/api/timesheets/reports/employees?${week}`)).body;
    expect(employee).toMatchObject({ regularHours: 40, overtimeHours: 2.5, laborCost: 820.31 });
    expect((await api().get(`/api/timesheets/reports?${week}&groupBy=role`)).body.totals).toMatchObject({ laborCost: 820.31 });
    expect((await api().patch("/api/timesheets/settings", { dailyOvertimeHours: null })).status).toBe(200);
  });

  it("refuses a wage with more than four decimals, on every input that takes one, REST and GraphQL alike", async () => {
    const refusals = [
      await api().post(`/api/organizations/${w.org.id}/roles`, { name: "Baker", hourlyWage: 18.33333 }),
      await api().patch(`/api/organizations/${w.org.id}/roles/${w.roleId}`, { hourlyWage: 0.00001 }),
      await api().post("/api/timesheets", {
        employeeId: w.workerId,
        locationId: w.locationId,
        roleId: w.roleId,
        startTime: "2026-03-20T08:00:00",
        endTime: "2026-03-20T09:00:00",
        hourlyWage: 14.99501,
      }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: "hourlyWage", message: "hourlyWage must have at most 4 decimals" })]);
    }
    const gql = await t.gql(w.org.token, `mutation { createRole(input: { name: "Baker", hourlyWage: 18.33333 }) { id } }`);
    expect(gql.errors?.[0].extensions).toMatchObject({ code: "VALIDATION_FAILED" });
    expect((await api().post(`/api/organizations/${w.org.id}/roles`, { name: "Baker", hourlyWage: 18.3333 })).body).toMatchObject({ hourlyWage: 18.3333 });
  });

  it("exports rows whose pay each follows from the row's own printed minutes and wage", async () => {
    const wages = [18.333, 14.995, 12.3456, 20, 0.0001];
    const endTimes = ["15:00", "09:00", "15:14", "15:21", "15:28"];
    for (const [i, hourlyWage] of wages.entries()) {
      const day = String(10 + i);
      const res = await api().post("/api/timesheets", {
        employeeId: w.workerId,
        locationId: w.locationId,
        roleId: w.roleId,
        startTime: `2026-03-${day}T08:00:00`,
        endTime: `2026-03-${day}T${endTimes[i]}:00`,
        hourlyWage,
      });
      expect(res.status).toBe(201);
    }
    const res = await api().get("/api/timesheets/export?startDate=2026-03-01&endDate=2026-03-31");
    const [header, ...lines] = res.text.split("\r\n").filter((l) => l !== "");
    const columns = header.split(",");
    expect(columns.slice(12, 16)).toEqual(["payable_minutes", "payable_hours", "hourly_wage", "pay"]);
    const rows = lines.map((line) => Object.fromEntries(line.split(",").map((cell, i) => [columns[i], cell])));
    expect(rows).toHaveLength(10);
    expect(rows.map((r) => r.hourly_wage)).toEqual(["18.75", "18.75", "18.75", "18.75", "18.75", "18.333", "14.995", "12.3456", "20.00", "0.0001"]);
    for (const row of rows) {
      expectRecomputable(row);
      expect(Number(row.payable_minutes)).toBe(Number(row.duration_minutes) - Number(row.unpaid_break_minutes));
    }
    // The first week's 42.5 hours: Friday's last 2.5 hours over 40 are overtime, 150 min × 18.75 × 0.5 / 60 = 23.4375 → 23.44.
    expect(rows.slice(0, 5).map((r) => [r.overtime_minutes, r.overtime_premium])).toEqual([
      ["0", "0.00"],
      ["0", "0.00"],
      ["0", "0.00"],
      ["0", "0.00"],
      ["150", "23.44"],
    ]);
    // 7 hours at 18.333 = 128.331; one hour at 14.995 is half a cent, rounded away from zero.
    expect(rows.slice(5, 7).map((r) => [r.payable_minutes, r.pay])).toEqual([
      ["420", "128.33"],
      ["60", "15.00"],
    ]);
  });
});
