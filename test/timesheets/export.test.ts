import { TestService } from "../support/harness";
import { countStatements } from "../support/statements";
import { workplace, Workplace } from "../support/workplace";
import { expectRecomputable } from "./pay-checks";

describe("payroll export", () => {
  let t: TestService;
  let w: Workplace;
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-04-01T12:00:00.000Z" });
    w = await workplace(t, "America/New_York", 18.37);
    const api = t.as(w.org.token);
    const lunch = (await api.post(`/api/organizations/${w.org.id}/locations/${w.locationId}/breaks`, { name: "Lunch", durationMinutes: 30 })).body;
    const rest = (await api.post(`/api/organizations/${w.org.id}/locations/${w.locationId}/breaks`, { name: "Rest", durationMinutes: 15, paid: true })).body;
    await api.post("/api/timesheets", {
      employeeId: w.workerId,
      locationId: w.locationId,
      roleId: w.roleId,
      startTime: "2026-03-02T09:00:00",
      endTime: "2026-03-02T17:00:00",
      breaks: [
        { startTime: "2026-03-02T10:30:00", endTime: "2026-03-02T10:45:00", typeId: rest.id },
        { startTime: "2026-03-02T12:00:00", endTime: "2026-03-02T12:30:00", typeId: lunch.id },
      ],
    });
    // An open shift is not exported: it is not payable yet.
    await api.post("/api/timesheets", { employeeId: w.workerId, locationId: w.locationId, roleId: w.roleId, startTime: "2026-03-03T09:00:00" });
  });
  afterAll(() => t.stop());

  it("streams CSV with a header and one row per closed shift, pay to the cent", async () => {
    const res = await t.as(w.org.token).get("/api/timesheets/export?startDate=2026-03-01&endDate=2026-03-31");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = res.text.split("\r\n");
    expect(lines[0]).toBe(
      "shift_id,employee,external_employee_id,payroll_id,location,role,date,start_time,end_time,duration_minutes,paid_break_minutes,unpaid_break_minutes,payable_minutes,payable_hours,hourly_wage,pay," +
        "regular_minutes,overtime_minutes,double_time_minutes,overtime_rate,overtime_premium,double_time_premium,meal_premium_minutes,meal_premium,rest_gap_minutes,rest_gap_rate,rest_gap_premium,predictability_pay,kind",
    );
    const cells = lines[1].split(",");
    expect(cells.slice(2)).toEqual([
      "E-1",
      "P-1",
      "Store America/New_York",
      "Cashier",
      "2026-03-02",
      "2026-03-02T09:00:00.000-05:00",
      "2026-03-02T17:00:00.000-05:00",
      "480",
      "15",
      "30",
      "450",
      "7.50",
      "18.37",
      "137.78",
      // No compliance profile: the organization's overtime settings (40 h a week), no premiums.
      "450",
      "0",
      "0",
      "1.5",
      "0.00",
      "0.00",
      "0",
      "0.00",
      "0",
      "",
      "0.00",
      "0.00",
      "SHIFT",
    ]);
    expect(lines.slice(2)).toEqual([""]);
  });

  it("counts clocked time to the nearest minute: 95 min 45 s is 96 minutes, and the row still recomputes from its columns", async () => {
    const api = t.as(w.org.token);
    const { staff } = await t.staffWithToken(w.org, "Worker", { name: "Seconds", roleIds: [w.roleId], locationIds: [w.locationId] });
    const created = await api.post("/api/timesheets", {
      employeeId: staff.id,
      locationId: w.locationId,
      roleId: w.roleId,
      startTime: "2026-02-20T09:00:00",
      endTime: "2026-02-20T10:35:45",
      breaks: [
        // 5 min 29 s rounds down, 10 min 30 s up: each total is rounded once.
        { startTime: "2026-02-20T09:10:00", endTime: "2026-02-20T09:15:29", paid: true },
        { startTime: "2026-02-20T09:30:00", endTime: "2026-02-20T09:40:30", paid: false },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ duration: 96, totalPaidBreaks: 5, totalUnpaidBreaks: 11, payableDuration: 85 });
    const res = await api.get(`/api/timesheets/export?startDate=2026-02-20&endDate=2026-02-20&employeeId=${staff.id}`);
    const [header, line] = res.text.split("\r\n");
    const row = Object.fromEntries(header.split(",").map((name, i) => [name, line.split(",")[i]]));
    expect(row).toMatchObject({ duration_minutes: "96", paid_break_minutes: "5", unpaid_break_minutes: "11", payable_minutes: "85", pay: "26.02" });
    expectRecomputable(row);
  });

  it("streams JSON rows, and the same rows through GraphQL", async () => {
    const res = await t.as(w.org.token).get("/api/timesheets/export?startDate=2026-03-01&endDate=2026-03-31&format=json");
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    const rows = JSON.parse(res.text);
    expect(rows).toEqual([
      expect.objectContaining({
        employee: expect.any(String),
        payrollId: "P-1",
        durationMinutes: 480,
        paidBreakMinutes: 15,
        unpaidBreakMinutes: 30,
        payableHours: 7.5,
        hourlyWage: 18.37,
        pay: 137.78,
      }),
    ]);
    const gql = await t.gql(w.org.token, `{ shiftExport(startDate: "2026-03-01", endDate: "2026-03-31") { pay payableHours startTime } }`);
    expect(gql.data!.shiftExport).toEqual([{ pay: 137.78, payableHours: 7.5, startTime: "2026-03-02T09:00:00.000-05:00" }]);
  });

  it("quotes typed text with commas and quotes, and keeps a spreadsheet from running it as a formula", async () => {
    const api = t.as(w.org.token);
    const { staff } = await t.staffWithToken(w.org, "Worker", {
      name: '=HYPERLINK("http://x", "Pay, now")',
      externalEmployeeId: "+1",
      payrollId: "@P",
      roleIds: [w.roleId],
      locationIds: [w.locationId],
    });
    await api.post("/api/timesheets", {
      employeeId: staff.id,
      locationId: w.locationId,
      roleId: w.roleId,
      startTime: "2026-03-09T09:00:00",
      endTime: "2026-03-09T10:00:00",
    });
    const res = await api.get(`/api/timesheets/export?startDate=2026-03-01&endDate=2026-03-31&employeeId=${staff.id}`);
    const line = res.text.split("\r\n")[1];
    expect(line.split(",")[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(line.slice(37)).toBe(
      `"'=HYPERLINK(""http://x"", ""Pay, now"")",'+1,'@P,Store America/New_York,Cashier,2026-03-09,2026-03-09T09:00:00.000-04:00,2026-03-09T10:00:00.000-04:00,60,0,0,60,1.00,18.37,18.37,60,0,0,1.5,0.00,0.00,0,0.00,0,,0.00,0.00,SHIFT`,
    );
  });

  it("refuses bad requests before streaming, and workers", async () => {
    const api = t.as(w.org.token);
    for (const query of [
      "",
      "?startDate=2026-03-01",
      "?startDate=2026-03-31&endDate=2026-03-01",
      "?startDate=2026-03-01&endDate=2026-03-31&format=xml",
      "?startDate=2026-03-01&endDate=2026-03-31&colour=red",
      "?startDate=2026-03-01&endDate=2026-03-31&locationId=nope",
    ]) {
      const res = await api.get(`/api/timesheets/export${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_FAILED");
    }
    expect((await t.as(w.workerToken).get("/api/timesheets/export?startDate=2026-03-01&endDate=2026-03-31")).status).toBe(403);
    expect((await t.http.get("/api/timesheets/export?startDate=2026-03-01&endDate=2026-03-31")).status).toBe(401);
    const openapi = await t.http.get("/api/openapi.json");
    expect(
      openapi.body.paths["/api/timesheets/export"].get.parameters.filter((p: { in?: string }) => p.in === "query").map((p: { name: string }) => p.name),
    ).toEqual(["startDate", "endDate", "payPeriod", "format", "locationId", "employeeId"]);
  });

  it("exports the shifts that start on the range's local days, whatever their day in UTC", async () => {
    const edges = await workplace(t, "America/New_York", 10);
    // In New York (UTC−5) the second starts on the range's first day and the third on its last, both on the day before or after in UTC; the others are outside.
    for (const start of ["2025-12-31T23:30:00-05:00", "2026-01-01T00:15:00-05:00", "2026-01-31T23:00:00-05:00", "2026-02-01T00:30:00-05:00"]) {
      await t.runtime.db.query(
        `INSERT INTO shifts (organization_id, employee_id, location_id, role_id, start_time, end_time, hourly_wage)
         VALUES ($1, $2, $3, $4, $5::timestamptz, $5::timestamptz + interval '30 minutes', 10)`,
        [edges.org.id, edges.workerId, edges.locationId, edges.roleId, start],
      );
    }
    const res = await t.as(edges.org.token).get("/api/timesheets/export?startDate=2026-01-01&endDate=2026-01-31");
    const rows = res.text.trim().split("\r\n").slice(1);
    expect(rows.map((line) => line.split(",").slice(6, 8))).toEqual([
      ["2026-01-01", "2026-01-01T00:15:00.000-05:00"],
      ["2026-01-31", "2026-01-31T23:00:00.000-05:00"],
    ]);
  });

  it("reads many rows in batches, in order", async () => {
    const second = await workplace(t, "Europe/Berlin", 10);
    await t.runtime.db.query(
      `INSERT INTO shifts (organization_id, employee_id, location_id, role_id, start_time, end_time, hourly_wage)
       SELECT $1, $2, $3, $4, t, t + interval '1 hour', 10
       FROM generate_series('2026-01-01T08:00:00Z'::timestamptz, '2026-01-01T08:00:00Z'::timestamptz + interval '4200 hours', interval '2 hours') t`,
      [second.org.id, second.workerId, second.locationId, second.roleId],
    );
    const statements = countStatements();
    const res = await t.as(second.org.token).get("/api/timesheets/export?startDate=2026-01-01&endDate=2026-12-31");
    const fetches = statements.sql.filter((sql) => /^FETCH \d+ FROM/.test(sql));
    statements.stop();
    // On PGlite 2101 rows come in three reads of a cursor (1000, 1000 and 101 rows), never all at once; a
    // PostgreSQL server copies them out as a stream instead (test/foundation/text-batches.test.ts).
    expect(fetches).toEqual(t.databaseUrl ? [] : ["FETCH 1000 FROM batch_cursor", "FETCH 1000 FROM batch_cursor", "FETCH 1000 FROM batch_cursor"]);
    const lines = res.text.trim().split("\r\n");
    expect(lines).toHaveLength(1 + 2101);
    // One-hour shifts: each is regular, or overtime at 1.5 (an hour at 10 × 0.5 = 5.00 above regular pay).
    expect(
      lines.slice(1).every((line) => /,60,0,0,60,1\.00,10\.00,10\.00,(60,0,0,1\.5,0\.00|0,60,0,1\.5,5\.00),0\.00,0,0\.00,0,,0\.00,0\.00,SHIFT$/.test(line)),
    ).toBe(true);
    // The organization's settings: hours beyond 40 in a Monday-to-Sunday week are overtime, in time order.
    const seen = new Map<string, number>();
    for (const line of lines.slice(1)) {
      const date = new Date(`${line.split(",")[6]}T00:00:00Z`);
      const week = new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
      seen.set(week, (seen.get(week) ?? 0) + 1);
      expect(line.includes(",0,60,0,1.5,5.00,")).toBe(seen.get(week)! > 40);
    }
    const starts = lines.slice(1).map((line) => line.split(",")[7]);
    expect([...starts].sort()).toEqual(starts);
  });

  it("refuses to hold more shifts than an answer may in memory, and streams them instead", async () => {
    // The limit is a setting: a small one here, so the test writes hundreds of shifts, not 20,000.
    const limit = 200;
    const small = await TestService.start({ env: { MAX_LISTED_SHIFTS: String(limit) } });
    try {
      const big = await workplace(small, "UTC", 12);
      // Quarter-hour shifts back to back from New Year's Day: one more than an answer may hold.
      await small.runtime.db.query(
        `INSERT INTO shifts (organization_id, employee_id, location_id, role_id, start_time, end_time, hourly_wage)
         SELECT $1, $2, $3, $4, t, t + interval '15 minutes', 12
         FROM generate_series('2026-01-01T00:00:00Z'::timestamptz, '2026-01-01T00:00:00Z'::timestamptz + $5 * interval '15 minutes', interval '15 minutes') t`,
        [big.org.id, big.workerId, big.locationId, big.roleId, limit],
      );
      const api = small.as(big.org.token);
      const list = await api.get("/api/timesheets?startDate=2026-01-01&endDate=2026-12-31");
      expect(list.status).toBe(400);
      expect(list.body.error.message).toMatch(new RegExp(`more than ${limit} shifts: narrow it`));
      const gql = await small.gql(big.org.token, `{ shiftExport(startDate: "2026-01-01", endDate: "2026-12-31") { shiftId } }`);
      expect(gql.errors?.[0].extensions?.code).toBe(list.body.error.code);
      // The first day holds 96 shifts: within the limit.
      expect((await api.get("/api/timesheets?startDate=2026-01-01&endDate=2026-01-01")).body.shifts).toHaveLength(96);
      const streamed = await api.get("/api/timesheets/export?startDate=2026-01-01&endDate=2026-12-31");
      expect(streamed.text.trim().split("\r\n")).toHaveLength(1 + limit + 1);
    } finally {
      await small.stop();
    }
  });
});
