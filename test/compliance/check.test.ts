import { TestService } from "../support/harness";
import { fileTimeOff } from "../support/time-off";
import { scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";
import { expectRecomputable } from "../timesheets/pay-checks";

/**
 * A week of an Oregon restaurant (America/New_York clock of the fixture location, preset US_OR
 * with a 12-hour longest shift and a 50-hour week of its own), checked on Friday 2026-03-06 at
 * noon for the week of Monday 2026-03-09. Ann closes Monday at 23:00 and opens Tuesday at 07:00,
 * works seven days in a row with a 13-hour Saturday; her Monday shift is shortened by a draft
 * three days ahead. Bob is added on Wednesday, over his approved time off.
 */
describe("the compliance check of a planned week", () => {
  let t: TestService;
  let w: ScheduleWorkplace;
  let ann: { id: string };
  let bob: { id: string };
  const entries: Record<string, string> = {};
  let mondayDraft: string;
  let bobDraft: string;

  const shift = (workerId: string, day: string, from: string, to: string, extra: object = {}) => ({
    workerId,
    roleId: w.roleId,
    startTime: `${day}T${from}:00`,
    endTime: `${day}T${to}:00`,
    ...extra,
  });

  beforeAll(async () => {
    t = await TestService.start({ now: "2026-03-06T17:00:00.000Z" });
    w = await scheduleWorkplace(t, "Oregon Diner");
    ann = await w.worker();
    bob = await w.worker();
    const api = t.as(w.manager);
    const week: [string, string, string, string][] = [
      ["mon", "2026-03-09", "15:00", "23:00"],
      ["tue", "2026-03-10", "07:00", "15:00"],
      ["wed", "2026-03-11", "07:00", "15:00"],
      ["thu", "2026-03-12", "07:00", "15:00"],
      ["fri", "2026-03-13", "07:00", "15:00"],
      ["sat", "2026-03-14", "09:00", "22:00"],
      ["sun", "2026-03-15", "07:00", "12:00"],
    ];
    for (const [name, day, from, to] of week) {
      const extra = name === "sat" ? { breaks: [{ typeId: w.breakTypeId, startTime: "2026-03-14T13:00:00" }] } : {};
      const res = await api.post(`${w.base}/schedules`, shift(ann.id, day, from, to, extra));
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      entries[name] = res.body.id;
    }
    mondayDraft = (await api.post(`${w.base}/schedules/drafts`, { entryId: entries.mon, startTime: "2026-03-09T16:00:00" })).body.id;
    await fileTimeOff(t, w.org, bob.id, "2026-03-11T00:00:00", "2026-03-12T00:00:00", "approved");
    bobDraft = (await api.post(`${w.base}/schedules/drafts`, shift(bob.id, "2026-03-11", "10:00", "16:00"))).body.id;
    const profile = await t.as(w.org.token).patch(`${w.base}/compliance`, { preset: "US_OR", maxShiftHours: 12, maxWeeklyHours: 50 });
    if (profile.status !== 200) throw new Error(JSON.stringify(profile.body));
  });
  afterAll(() => t.stop());

  const expected = () => [
    {
      ruleId: "MAX_SHIFT_LENGTH",
      severity: "error",
      workerId: ann.id,
      entryIds: [entries.sat],
      message: "The shift starting 2026-03-14T09:00:00.000-04:00 lasts 13 h; the longest allowed is 12 h",
      citation: "Location compliance profile",
      premium: null,
    },
    {
      // Mon 7 (16:00–23:00) + Tue–Fri 4 × 8 + Sat 13 − 0.5 unpaid + Sun 5 = 56.5 h > 50 h.
      ruleId: "MAX_WEEKLY_HOURS",
      severity: "error",
      workerId: ann.id,
      entryIds: [mondayDraft, entries.tue, entries.wed, entries.thu, entries.fri, entries.sat, entries.sun],
      message: "56.5 h of work planned in the workweek starting 2026-03-09; the most allowed is 50 h",
      citation: "Location compliance profile",
      premium: null,
    },
    {
      ruleId: "TIME_OFF",
      severity: "error",
      workerId: bob.id,
      entryIds: [bobDraft],
      message:
        "The shift starting 2026-03-11T10:00:00.000-04:00 falls in approved time off from 2026-03-11T00:00:00.000-04:00 to 2026-03-12T00:00:00.000-04:00",
      citation: "Approved time off",
      premium: null,
    },
    {
      // ORS 653.442: 8 h of rest, 2 h of Tuesday inside the 10 h; 2 × $20 × 0.5 = $20.
      ruleId: "REST_BETWEEN_SHIFTS",
      severity: "warning",
      workerId: ann.id,
      entryIds: [mondayDraft, entries.tue],
      message:
        "Only 8 h of rest between the shift ending 2026-03-09T23:00:00.000-04:00 and the one starting 2026-03-10T07:00:00.000-04:00; the minimum is 10 h",
      citation: "ORS 653.442; OAR 839-026-0040",
      premium: { hours: 2, amount: 20 },
    },
    {
      // Saturday ends 22:00, Sunday opens 07:00: 9 h of rest, 1 h inside; 1 × $20 × 0.5 = $10.
      ruleId: "REST_BETWEEN_SHIFTS",
      severity: "warning",
      workerId: ann.id,
      entryIds: [entries.sat, entries.sun],
      message:
        "Only 9 h of rest between the shift ending 2026-03-14T22:00:00.000-04:00 and the one starting 2026-03-15T07:00:00.000-04:00; the minimum is 10 h",
      citation: "ORS 653.442; OAR 839-026-0040",
      premium: { hours: 1, amount: 10 },
    },
    {
      // ORS 653.455(2)(b): 8 h → 7 h with 74 h of notice: 1 h lost × $20 × 0.5 = $10.
      ruleId: "NOTICE_WINDOW",
      severity: "warning",
      workerId: ann.id,
      entryIds: [mondayDraft],
      message: "A change takes hours away from a shift starting 2026-03-09T15:00:00.000-04:00 with 74 h of notice; the schedule must be given 14 days ahead",
      citation: "ORS 653.436, ORS 653.455",
      premium: { hours: 1, amount: 10 },
    },
    {
      // ORS 653.455(2)(a)(C): an additional shift, one hour of pay: $20.
      ruleId: "NOTICE_WINDOW",
      severity: "warning",
      workerId: bob.id,
      entryIds: [bobDraft],
      message: "A change adds a shift starting 2026-03-11T10:00:00.000-04:00 with 117 h of notice; the schedule must be given 14 days ahead",
      citation: "ORS 653.436, ORS 653.455",
      premium: { hours: 1, amount: 20 },
    },
  ];

  const sorted = (list: { ruleId: string; workerId: string; entryIds: string[] }[]) =>
    [...list].sort((a, b) => `${a.ruleId}${a.workerId}${a.entryIds}`.localeCompare(`${b.ruleId}${b.workerId}${b.entryIds}`));

  it("answers every rule the week breaks through REST, errors first", async () => {
    const res = await t.as(w.manager).post(`${w.base}/schedules/compliance-check`, { startDate: "2026-03-09", endDate: "2026-03-15" });
    expect(res.status).toBe(200);
    expect(res.body.startDate).toBe("2026-03-09");
    expect(sorted(res.body.violations)).toEqual(sorted(expected()));
    expect(res.body.violations.map((v: { severity: string }) => v.severity)).toEqual(["error", "error", "error", "warning", "warning", "warning", "warning"]);
  });

  it("answers the same through GraphQL", async () => {
    const res = await t.gql(
      w.manager,
      `query($loc: ID!, $input: ComplianceCheckInput!) { complianceCheck(locationId: $loc, input: $input) { startDate endDate violations { ruleId severity workerId entryIds message citation premium { hours amount } } } }`,
      { loc: w.locationId, input: { startDate: "2026-03-09", endDate: "2026-03-15" } },
    );
    expect(res.errors).toBeUndefined();
    expect(sorted(res.data!.complianceCheck.violations)).toEqual(sorted(expected()));
  });

  it("checks only the range: Sunday alone has its own rest gap and the week's hours, the other location nothing", async () => {
    const api = t.as(w.manager);
    const sunday = await api.post(`${w.base}/schedules/compliance-check`, { startDate: "2026-03-15", endDate: "2026-03-15" });
    // Sunday alone: the whole workweek's hours count and Saturday's closing precedes it; Monday's change and Tuesday are out of range.
    expect(sunday.body.violations.map((v: { ruleId: string; entryIds: string[] }) => [v.ruleId, v.entryIds.at(-1)])).toEqual([
      ["MAX_WEEKLY_HOURS", entries.sun],
      ["REST_BETWEEN_SHIFTS", entries.sun],
    ]);
    const other = (await t.as(w.org.token).post(`/api/organizations/${w.org.id}/locations`, { name: "Annex", timezone: "America/New_York" })).body.id;
    expect(
      (await api.post(`/api/organizations/${w.org.id}/locations/${other}/schedules/compliance-check`, { startDate: "2026-03-09", endDate: "2026-03-15" })).body,
    ).toEqual({ startDate: "2026-03-09", endDate: "2026-03-15", violations: [] });
  });

  it("refuses a bad range and workers", async () => {
    const api = t.as(w.manager);
    expect((await api.post(`${w.base}/schedules/compliance-check`, { startDate: "2026-03-15", endDate: "2026-03-09" })).status).toBe(400);
    expect((await api.post(`${w.base}/schedules/compliance-check`, { startDate: "2026-03-09" })).status).toBe(400);
    const worker = await w.worker();
    expect((await t.as(worker.token).post(`${w.base}/schedules/compliance-check`, { startDate: "2026-03-09", endDate: "2026-03-15" })).status).toBe(403);
  });

  it("publishes the week and pays the worked week by the law: premiums and California overtime in the report and the export, REST and GraphQL", async () => {
    // The restaurant is in California under a local fair-workweek ordinance: California's §510
    // overtime and §512 meal periods, and Oregon-like figures for rest and notice.
    const profile = await t
      .as(w.org.token)
      .patch(`${w.base}/compliance`, { preset: "US_CA", minRestHours: 10, restPayRate: 1.5, noticeDays: 14, changePayHours: 1, reductionPayRate: 0.5 });
    expect(profile.status).toBe(200);
    // Bob's added shift moves to Thursday, out of his time off (which publishing refuses outright).
    expect(
      (await t.as(w.manager).patch(`${w.base}/schedules/drafts/${bobDraft}`, { startTime: "2026-03-12T10:00:00", endTime: "2026-03-12T16:00:00" })).status,
    ).toBe(200);
    const published = await t.as(w.manager).post(`${w.base}/schedules/publish`, {
      startDate: "2026-03-09",
      endDate: "2026-03-15",
      acknowledge: true,
      reason: "Inventory week, agreed with the team",
    });
    expect(published.status).toBe(200);

    // The week as worked: Monday 16:00–23:00 (the changed shift), Tuesday to Friday 07:00–15:00,
    // Saturday 09:00–22:00 with one meal, Sunday 07:00–12:00. Wednesday's meal starts at 12:30, after
    // the end of the 5th hour; Saturday has no second meal before the end of its 10th hour (19:00).
    const worked: [string, string, string, [string, string][]][] = [
      ["2026-03-09", "16:00", "23:00", [["19:00", "19:30"]]],
      ["2026-03-10", "07:00", "15:00", [["11:00", "11:30"]]],
      ["2026-03-11", "07:00", "15:00", [["12:30", "13:00"]]],
      ["2026-03-12", "07:00", "15:00", [["11:00", "11:30"]]],
      ["2026-03-13", "07:00", "15:00", [["11:00", "11:30"]]],
      ["2026-03-14", "09:00", "22:00", [["13:00", "13:30"]]],
      ["2026-03-15", "07:00", "12:00", []],
    ];
    for (const [day, from, to, breaks] of worked) {
      const res = await t.as(w.org.token).post("/api/timesheets", {
        employeeId: ann.id,
        locationId: w.locationId,
        roleId: w.roleId,
        startTime: `${day}T${from}:00`,
        endTime: `${day}T${to}:00`,
        breaks: breaks.map(([a, b]) => ({ startTime: `${day}T${a}:00`, endTime: `${day}T${b}:00`, paid: false })),
      });
      expect(res.status).toBe(201);
    }

    // Hours: 6.5 + 4 × 7.5 + 12.5 + 5 = 54, at $20.
    // §510(a): Monday–Friday 36.5 regular; Saturday 12.5: 8 by the day, then 4 at 1.5× and 0.5 at 2×,
    // and of its 8 only 3.5 fit under the week's 40: 3.5 regular, 8.5 at 1.5×, 0.5 at 2×; Sunday is the
    // seventh consecutive workday: its 5 h at 1.5×. Regular 40, 1.5× 13.5, 2× 0.5.
    // Pay 54 × 20 = 1080; overtime premium 13.5 × 20 × 0.5 = 135; double time 0.5 × 20 = 10; labor cost 1225.
    // §226.7: Wednesday and Saturday missed the meal period: 2 × 1 h × 20 = 40.
    // Rest below 10 h: Monday 23:00 → Tuesday 07:00, 2 h inside × 20 × 0.5 = 20; Saturday 22:00 → Sunday 07:00, 1 h: 10.
    // Predictability pay recorded at publishing: Monday cut from 8 h to 7 h with 74 h of notice, 1 h × 20 × 0.5 = 10.
    // Total 1225 + 40 + 30 + 10 = 1305.
    const annFigures = {
      shifts: 7,
      totalHours: 54,
      regularHours: 40,
      overtimeHours: 13.5,
      doubleTimeHours: 0.5,
      laborCost: 1225,
      overtimePremium: 135,
      doubleTimePremium: 10,
      mealPremiums: 2,
      mealPremium: 40,
      restGapPremium: 30,
      predictabilityPay: 10,
      totalCost: 1305,
    };
    const employees = await t.as(w.org.token).get("/api/timesheets/reports/employees?startDate=2026-03-09&endDate=2026-03-15");
    expect(employees.status).toBe(200);
    expect(employees.body.find((e: { employeeId: string }) => e.employeeId === ann.id)).toMatchObject(annFigures);
    // Bob never worked the added shift: only its predictability pay (one hour, $20) is owed to him.
    expect(employees.body.find((e: { employeeId: string }) => e.employeeId === bob.id)).toMatchObject({
      shifts: 0,
      laborCost: 0,
      predictabilityPay: 20,
      totalCost: 20,
    });

    const fields = Object.keys(annFigures).join(" ");
    const gql = await t.gql(
      w.org.token,
      `{ shiftReport(startDate: "2026-03-09", endDate: "2026-03-15", groupBy: location) { totals { ${fields} } } employeeShiftReports(startDate: "2026-03-09", endDate: "2026-03-15") { employeeId ${fields} } }`,
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data!.shiftReport.totals).toEqual({ ...annFigures, predictabilityPay: 30, totalCost: 1325 });
    expect(gql.data!.employeeShiftReports.find((e: { employeeId: string }) => e.employeeId === ann.id)).toEqual({ employeeId: ann.id, ...annFigures });

    const csv = await t.as(w.org.token).get(`/api/timesheets/export?startDate=2026-03-09&endDate=2026-03-15&employeeId=${ann.id}`);
    const [header, ...lines] = csv.text.split("\r\n").filter((l: string) => l !== "");
    const columns = header.split(",");
    const rows = lines.map((line: string) => Object.fromEntries(line.split(",").map((cell, i) => [columns[i], cell])) as Record<string, string>);
    for (const row of rows) expectRecomputable(row);
    const shown = [
      "kind",
      "date",
      "payable_minutes",
      "regular_minutes",
      "overtime_minutes",
      "double_time_minutes",
      "overtime_premium",
      "double_time_premium",
      "meal_premium",
      "rest_gap_minutes",
      "rest_gap_premium",
      "predictability_pay",
    ];
    expect(rows.map((r) => shown.map((c) => r[c]))).toEqual([
      ["SHIFT", "2026-03-09", "390", "390", "0", "0", "0.00", "0.00", "0.00", "0", "0.00", "0.00"],
      ["SHIFT", "2026-03-10", "450", "450", "0", "0", "0.00", "0.00", "0.00", "120", "20.00", "0.00"],
      ["SHIFT", "2026-03-11", "450", "450", "0", "0", "0.00", "0.00", "20.00", "0", "0.00", "0.00"],
      ["SHIFT", "2026-03-12", "450", "450", "0", "0", "0.00", "0.00", "0.00", "0", "0.00", "0.00"],
      ["SHIFT", "2026-03-13", "450", "450", "0", "0", "0.00", "0.00", "0.00", "0", "0.00", "0.00"],
      // 510 min × 20 × 0.5 / 60 = 85.00; 30 min × 20 / 60 = 10.00.
      ["SHIFT", "2026-03-14", "750", "210", "510", "30", "85.00", "10.00", "20.00", "0", "0.00", "0.00"],
      // 300 min × 20 × 0.5 / 60 = 50.00.
      ["SHIFT", "2026-03-15", "300", "0", "300", "0", "50.00", "0.00", "0.00", "60", "10.00", "0.00"],
      ["PREDICTABILITY_PAY", "2026-03-09", "0", "0", "0", "0", "0.00", "0.00", "0.00", "0", "0.00", "10.00"],
    ]);
    expect(rows.at(-1)).toMatchObject({ shift_id: entries.mon, start_time: "2026-03-09T15:00:00.000-04:00" });

    const gqlRows = await t.gql(
      w.org.token,
      `query($e: ID) { shiftExport(startDate: "2026-03-09", endDate: "2026-03-15", employeeId: $e) { kind overtimeMinutes doubleTimeMinutes overtimePremium mealPremium restGapRate restGapPremium predictabilityPay } }`,
      { e: bob.id },
    );
    expect(gqlRows.errors).toBeUndefined();
    expect(gqlRows.data!.shiftExport).toEqual([
      {
        kind: "PREDICTABILITY_PAY",
        overtimeMinutes: 0,
        doubleTimeMinutes: 0,
        overtimePremium: 0,
        mealPremium: 0,
        restGapRate: null,
        restGapPremium: 0,
        predictabilityPay: 20,
      },
    ]);
  });
});
