import { TestOrganization, TestService } from "../support/harness";
import { expectRecomputable } from "../timesheets/pay-checks";

/**
 * Premiums and overtime in the reports and the export, from recorded shifts, worked by hand at a
 * wage of $18.75. Locations: Los Angeles (US_CA), Portland (US_OR), New York (US_NY_NYC_FAST_FOOD)
 * and a store without a profile (the organization's settings: 40 h a week at 1.5×, no daily rule).
 * Every worker has a week of their own (Monday 2026-03-09 to Sunday 2026-03-15).
 */
describe("premiums and overtime owed, in reports and the export", () => {
  let t: TestService;
  let org: TestOrganization;
  let roleId: string;
  const loc: Record<"ca" | "or" | "nyc" | "plain", string> = { ca: "", or: "", nyc: "", plain: "" };
  const WEEK = "startDate=2026-03-09&endDate=2026-03-15";

  beforeAll(async () => {
    t = await TestService.start({ now: "2026-03-06T17:00:00.000Z" });
    org = await t.organization("Pay Co");
    const api = t.as(org.token);
    roleId = (await api.post(`/api/organizations/${org.id}/roles`, { name: "Cook", hourlyWage: 18.75 })).body.id;
    const places: [keyof typeof loc, string, string, string | null][] = [
      ["ca", "Los Angeles", "America/Los_Angeles", "US_CA"],
      ["or", "Portland", "America/Los_Angeles", "US_OR"],
      ["nyc", "Queens", "America/New_York", "US_NY_NYC_FAST_FOOD"],
      ["plain", "Reno", "America/Los_Angeles", null],
    ];
    for (const [key, name, timezone, preset] of places) {
      loc[key] = (await api.post(`/api/organizations/${org.id}/locations`, { name, timezone })).body.id;
      if (preset) expect((await api.patch(`/api/organizations/${org.id}/locations/${loc[key]}/compliance`, { preset })).status).toBe(200);
    }
  });
  afterAll(() => t.stop());

  const worker = async (fields: Record<string, string> = {}) =>
    (await t.staffWithToken(org, "Worker", { roleIds: [roleId], locationIds: Object.values(loc), ...fields })).staff.id;

  /** Records a worked shift, local times of the location, with unpaid breaks [from, to]. */
  const work = async (workerId: string, where: keyof typeof loc, day: string, from: string, to: string, breaks: [string, string][] = []) => {
    const res = await t.as(org.token).post("/api/timesheets", {
      employeeId: workerId,
      locationId: loc[where],
      roleId,
      startTime: `${day}T${from}:00`,
      endTime: `${day}T${to}:00`,
      breaks: breaks.map(([s, e]) => ({ startTime: `${day}T${s}:00`, endTime: `${day}T${e}:00`, paid: false })),
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  };

  const report = async (workerId: string, range = WEEK) => {
    const res = await t.as(org.token).get(`/api/timesheets/reports/employees?${range}`);
    expect(res.status).toBe(200);
    return res.body.find((r: { employeeId: string }) => r.employeeId === workerId);
  };

  /** The worker's export rows, each checked against its own printed columns. */
  const exported = async (workerId: string, range = WEEK, flatRestGap?: string) => {
    const res = await t.as(org.token).get(`/api/timesheets/export?${range}&employeeId=${workerId}`);
    expect(res.status).toBe(200);
    const [header, ...lines] = res.text.split("\r\n").filter((l: string) => l !== "");
    const columns = header.split(",");
    const rows = lines.map((line: string) => Object.fromEntries(line.split(",").map((cell, i) => [columns[i], cell])) as Record<string, string>);
    for (const row of rows) expectRecomputable(row, flatRestGap);
    return rows;
  };
  const pick = (rows: Record<string, string>[], ...columns: string[]) => rows.map((r) => columns.map((c) => r[c]));

  it("§510(a): work over eight hours in one workday at one and one-half times the regular rate", async () => {
    // "Any work in excess of eight hours in one workday … shall be compensated at the rate of no
    // less than one and one-half times the regular rate of pay."
    const ann = await worker();
    // 07:00–17:00 with a 30-minute meal at 11:00: 9.5 h worked, 8 regular and 1.5 at 1.5×.
    await work(ann, "ca", "2026-03-10", "07:00", "17:00", [["11:00", "11:30"]]);
    // 9.5 × 18.75 = 178.125; premium 1.5 × 18.75 × 0.5 = 14.0625 → 14.06; together 192.1875 → 192.19.
    expect(await report(ann)).toMatchObject({
      totalHours: 9.5,
      regularHours: 8,
      overtimeHours: 1.5,
      doubleTimeHours: 0,
      overtimePremium: 14.06,
      doubleTimePremium: 0,
      laborCost: 192.19,
      mealPremium: 0,
      totalCost: 192.19,
    });
    expect(pick(await exported(ann), "regular_minutes", "overtime_minutes", "double_time_minutes", "overtime_rate", "pay", "overtime_premium")).toEqual([
      ["480", "90", "0", "1.5", "178.13", "14.06"],
    ]);
    const gql = await t.gql(
      org.token,
      `{ employeeShiftReports(startDate: "2026-03-09", endDate: "2026-03-15") { employeeId overtimeHours overtimePremium laborCost } }`,
    );
    expect(gql.data!.employeeShiftReports.find((r: { employeeId: string }) => r.employeeId === ann)).toEqual({
      employeeId: ann,
      overtimeHours: 1.5,
      overtimePremium: 14.06,
      laborCost: 192.19,
    });
  });

  it("rounds each report figure once from the exact sum, each export row on its own", async () => {
    const jo = await worker();
    // Two 8.25-hour days: 15 minutes of daily overtime each, 15 × 18.75 × 0.5 / 60 = 2.34375 per day.
    for (const day of ["2026-03-10", "2026-03-11"]) await work(jo, "ca", day, "07:00", "15:45", [["11:00", "11:30"]]);
    // Report: 2 × 2.34375 = 4.6875 → 4.69 (not 2.34 + 2.34); 16.5 × 18.75 = 309.375, labor cost 314.0625 → 314.06.
    expect(await report(jo)).toMatchObject({ overtimeHours: 0.5, overtimePremium: 4.69, laborCost: 314.06 });
    expect(pick(await exported(jo), "overtime_minutes", "overtime_premium")).toEqual([
      ["15", "2.34"],
      ["15", "2.34"],
    ]);
  });

  it("§510(a): work over twelve hours in one day at twice the regular rate", async () => {
    // "Any work in excess of 12 hours in one day shall be compensated at the rate of no less than
    // twice the regular rate of pay."
    const bea = await worker();
    // 06:00–19:30 with meals at 10:00 and 15:00 (§512(a): before the ends of the 5th and 10th hours): 12.5 h worked.
    await work(bea, "ca", "2026-03-11", "06:00", "19:30", [
      ["10:00", "10:30"],
      ["15:00", "15:30"],
    ]);
    // 8 regular, 4 at 1.5×, 0.5 at 2×. 12.5 × 18.75 = 234.375; 4 × 9.375 = 37.50; 0.5 × 18.75 = 9.375 → 9.38;
    // labor cost 234.375 + 37.5 + 9.375 = 281.25 exactly (the row's figures, each rounded, add up to 281.26).
    expect(await report(bea)).toMatchObject({
      totalHours: 12.5,
      regularHours: 8,
      overtimeHours: 4,
      doubleTimeHours: 0.5,
      overtimePremium: 37.5,
      doubleTimePremium: 9.38,
      laborCost: 281.25,
      mealPremiums: 0,
    });
    expect(
      pick(await exported(bea), "regular_minutes", "overtime_minutes", "double_time_minutes", "pay", "overtime_premium", "double_time_premium", "meal_premium"),
    ).toEqual([["480", "240", "30", "234.38", "37.50", "9.38", "0.00"]]);
  });

  it("§510(a): work over 40 hours in one workweek at one and one-half times, no hour paid twice", async () => {
    // "… and any work in excess of 40 hours in any one workweek … one and one-half times the regular rate".
    const cy = await worker();
    for (const day of ["09", "10", "11", "12", "13"]) await work(cy, "ca", `2026-03-${day}`, "07:00", "15:30", [["11:00", "11:30"]]);
    await work(cy, "ca", "2026-03-14", "07:00", "12:00");
    // Monday to Friday 8 h each (40 regular), Saturday 5 h over 40 at 1.5×: 45 × 18.75 = 843.75,
    // 5 × 18.75 × 0.5 = 46.875 → 46.88; labor cost 890.625 → 890.63 (half away from zero).
    expect(await report(cy)).toMatchObject({
      shifts: 6,
      totalHours: 45,
      regularHours: 40,
      overtimeHours: 5,
      doubleTimeHours: 0,
      overtimePremium: 46.88,
      laborCost: 890.63,
    });
    expect(pick(await exported(cy), "date", "overtime_minutes", "overtime_premium").at(-1)).toEqual(["2026-03-14", "300", "46.88"]);
  });

  it("§510(a): the seventh consecutive day of a workweek, first eight hours at 1.5× and beyond at 2×", async () => {
    // "… and the first eight hours worked on the seventh day of work in any one workweek shall be
    // compensated at the rate of no less than one and one-half times the regular rate … any work in
    // excess of eight hours on any seventh day of a workweek shall be compensated at the rate of no
    // less than twice the regular rate of pay."
    const eve = await worker();
    for (const day of ["09", "10", "11", "12", "13", "14"]) await work(eve, "ca", `2026-03-${day}`, "07:00", "12:00");
    await work(eve, "ca", "2026-03-15", "07:00", "17:30", [
      ["11:00", "11:30"],
      ["15:00", "15:30"],
    ]);
    // Monday to Saturday 5 h (30 regular); Sunday 9.5 h: 8 at 1.5×, 1.5 at 2×.
    // 39.5 × 18.75 = 740.625; 8 × 9.375 = 75.00; 1.5 × 18.75 = 28.125 → 28.13; labor cost 843.75.
    expect(await report(eve)).toMatchObject({
      totalHours: 39.5,
      regularHours: 30,
      overtimeHours: 8,
      doubleTimeHours: 1.5,
      overtimePremium: 75,
      doubleTimePremium: 28.13,
      laborCost: 843.75,
    });
    expect(pick(await exported(eve), "date", "regular_minutes", "overtime_minutes", "double_time_minutes").at(-1)).toEqual(["2026-03-15", "0", "480", "90"]);
  });

  it("§226.7 and §512(a): one hour at the regular rate for a workday whose recorded meal period came late, short or not at all", async () => {
    // §512(a): "An employer shall not employ an employee for a work period of more than five hours
    // per day without providing the employee with a meal period of not less than 30 minutes";
    // §226.7: one additional hour of pay at the regular rate for each workday the meal period is not provided.
    const fay = await worker();
    await work(fay, "ca", "2026-03-11", "09:00", "16:00", [["14:30", "15:00"]]); // starts after the end of the 5th hour (14:00)
    await work(fay, "ca", "2026-03-12", "06:00", "12:00"); // 6 h, no meal
    await work(fay, "ca", "2026-03-12", "13:00", "19:00"); // the same workday again: no second premium
    await work(fay, "ca", "2026-03-13", "09:00", "16:00", [["12:00", "12:20"]]); // 20 minutes is not a meal period
    await work(fay, "ca", "2026-03-14", "09:00", "16:00", [["12:00", "12:30"]]); // on time: nothing owed
    // Three workdays × 1 h × 18.75 = 56.25.
    expect(await report(fay)).toMatchObject({ shifts: 5, mealPremiums: 3, mealPremium: 56.25 });
    expect(pick(await exported(fay), "date", "meal_premium_minutes", "meal_premium")).toEqual([
      ["2026-03-11", "60", "18.75"],
      ["2026-03-12", "60", "18.75"],
      ["2026-03-12", "0", "0.00"],
      ["2026-03-13", "60", "18.75"],
      ["2026-03-14", "0", "0.00"],
    ]);
    const byDay = (await t.as(org.token).get(`/api/timesheets/reports?${WEEK}&groupBy=day&locationId=${loc.ca}`)).body;
    expect(byDay.groups.find((g: { key: string }) => g.key === "2026-03-12")).toMatchObject({ mealPremiums: 1 });
  });

  it("ORS 653.442: hours worked inside the ten-hour rest at one and one-half times, by recorded shifts", async () => {
    // OAR 839-026-0040: "an employer may not schedule or require an employee to work: (a) Less than
    // ten hours after the end of the previous calendar day's work shift"; ORS 653.442(2): one and
    // one-half times the regular rate for the hours worked inside the rest period.
    const gus = await worker();
    await work(gus, "or", "2026-03-09", "15:00", "23:00");
    await work(gus, "or", "2026-03-10", "07:00", "15:00");
    // A split shift the same day: the rule is about "the previous calendar day's work shift".
    await work(gus, "or", "2026-03-10", "17:00", "20:00");
    // 8 h of rest: Tuesday's first 2 h fall inside the 10; 2 × 18.75 × 0.5 = 18.75 above regular pay.
    // 19 h × 18.75 = 356.25; total 375.
    expect(await report(gus)).toMatchObject({ restGapPremium: 18.75, laborCost: 356.25, totalCost: 375 });
    expect(pick(await exported(gus), "date", "rest_gap_minutes", "rest_gap_rate", "rest_gap_premium")).toEqual([
      ["2026-03-09", "0", "", "0.00"],
      ["2026-03-10", "120", "0.5", "18.75"],
      ["2026-03-10", "0", "", "0.00"],
    ]);
    // Tuesday alone still counts Monday's closing.
    expect(await report(gus, "startDate=2026-03-10&endDate=2026-03-10")).toMatchObject({ shifts: 2, restGapPremium: 18.75 });
  });

  it("NYC Admin. Code §20-1231: a flat $100 for a clopening", async () => {
    // DCWP: "$100 premium to work 'clopening' shifts" (closing, then opening with less than 11 hours between).
    const hal = await worker();
    await work(hal, "nyc", "2026-03-09", "15:00", "23:00");
    await work(hal, "nyc", "2026-03-10", "07:00", "15:00");
    expect(await report(hal)).toMatchObject({ restGapPremium: 100, totalCost: 400 });
    expect(pick(await exported(hal, WEEK, "100.00"), "rest_gap_minutes", "rest_gap_rate", "rest_gap_premium")).toEqual([
      ["0", "", "0.00"],
      ["180", "", "100.00"],
    ]);
  });

  it("ORS 653.455(2): predictability pay recorded for changes inside the notice window", async () => {
    // "(a) One hour of pay at the employee's regular rate of pay … when the employer … (C) Schedules
    // the employee for an additional work shift … (b) One-half times the employee's regular rate of
    // pay per hour for each scheduled hour that the employee does not work when the employer: (A) Subtracts hours".
    const ivy = await worker();
    const schedules = `/api/organizations/${org.id}/locations/${loc.or}/schedules`;
    // Five days ahead: added (1 h × 18.75), then 10:00–16:00 cut to 10:00–14:00 (2 h × 18.75 × 0.5 = 18.75).
    const entry = await t.as(org.token).post(schedules, { workerId: ivy, roleId, startTime: "2026-03-11T10:00:00", endTime: "2026-03-11T16:00:00" });
    expect(entry.status).toBe(201);
    expect((await t.as(org.token).patch(`${schedules}/${entry.body.id}`, { endTime: "2026-03-11T14:00:00" })).status).toBe(200);
    await work(ivy, "or", "2026-03-11", "10:00", "14:00");
    // 4 × 18.75 = 75 for the hours, 37.50 of predictability pay.
    expect(await report(ivy)).toMatchObject({ shifts: 1, laborCost: 75, predictabilityPay: 37.5, totalCost: 112.5 });
    const rows = await exported(ivy);
    expect(pick(rows, "kind", "shift_id", "date", "start_time", "payable_minutes", "pay", "predictability_pay")).toEqual([
      ["SHIFT", expect.any(String), "2026-03-11", "2026-03-11T10:00:00.000-07:00", "240", "75.00", "0.00"],
      ["PREDICTABILITY_PAY", entry.body.id, "2026-03-11", "2026-03-11T10:00:00.000-07:00", "0", "0.00", "18.75"],
      ["PREDICTABILITY_PAY", entry.body.id, "2026-03-11", "2026-03-11T10:00:00.000-07:00", "0", "0.00", "18.75"],
    ]);
    const byLocation = (await t.as(org.token).get(`/api/timesheets/reports?${WEEK}&groupBy=location&locationId=${loc.or}`)).body;
    expect(byLocation.groups).toEqual([expect.objectContaining({ key: loc.or, label: "Portland" })]);
    // Gus's rest gap and Ivy's predictability pay, each figure rounded once.
    expect(byLocation.totals).toMatchObject({ restGapPremium: 18.75, predictabilityPay: 37.5 });
  });

  it("keeps the organization's overtime rules where the location's profile sets none", async () => {
    const dee = await worker();
    // The same 9.5-hour day as at the Los Angeles store: no daily threshold in the settings, no overtime.
    await work(dee, "plain", "2026-03-10", "07:00", "17:00", [["11:00", "11:30"]]);
    await work(dee, "plain", "2026-03-11", "06:00", "11:00");
    expect(await report(dee)).toMatchObject({ totalHours: 14.5, overtimeHours: 0, doubleTimeHours: 0, mealPremiums: 0, laborCost: 271.88, totalCost: 271.88 });
    // The settings' daily threshold applies to it, at the settings' rate.
    expect((await t.as(org.token).patch("/api/timesheets/settings", { dailyOvertimeHours: 9, overtimeRate: 1.75 })).status).toBe(200);
    try {
      // Tuesday's 0.5 h over 9 at 1.75: 0.5 × 18.75 × 0.75 = 7.03125 → 7.03; 14.5 × 18.75 = 271.875; together 278.90625 → 278.91.
      expect(await report(dee)).toMatchObject({ overtimeHours: 0.5, overtimePremium: 7.03, laborCost: 278.91 });
      expect(pick(await exported(dee), "overtime_minutes", "overtime_rate", "overtime_premium")).toEqual([
        ["30", "1.75", "7.03"],
        ["0", "1.75", "0.00"],
      ]);
    } finally {
      await t.as(org.token).patch("/api/timesheets/settings", { dailyOvertimeHours: null, overtimeRate: 1.5 });
    }
  });

  it("writes the CSV export as its JSON rows say, byte for byte: typed text quoted and guarded, non-ASCII text in UTF-8", async () => {
    // The CSV is written straight into bytes for speed (shift-export.csv.ts); here it is compared with the JSON rows written the plain way.
    const zoe = await worker({ name: 'Zoë "Ångström", Jr.', externalEmployeeId: "=HYPERLINK(1)", payrollId: "P,1" });
    // Ten hours without a meal in Los Angeles: daily overtime and a meal premium.
    await work(zoe, "ca", "2026-03-09", "07:00", "17:00");
    const text = (value: string | null) => {
      if (value === null) return "";
      const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
      return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
    };
    const money = (n: number) => n.toFixed(2);
    const wage = (n: number) => (/\.\d$|^\d+$/.test(String(n)) ? n.toFixed(2) : String(n));
    // Every worker of the week so far: rest gaps priced and flat, predictability pay, overtime of each kind.
    const csv = await t.as(org.token).get(`/api/timesheets/export?${WEEK}`);
    const json = await t.as(org.token).get(`/api/timesheets/export?${WEEK}&format=json`);
    expect([csv.status, json.status]).toEqual([200, 200]);
    type Row = Record<string, string | number | null>;
    const rows: Row[] = json.body;
    for (const kind of ["mealPremium", "overtimePremium", "doubleTimePremium", "restGapPremium", "predictabilityPay"]) {
      expect(rows.some((r) => (r[kind] as number) > 0)).toBe(true);
    }
    const lines = rows.map((r) =>
      [
        r.shiftId,
        ...[r.employee, r.externalEmployeeId, r.payrollId, r.location, r.role].map((v) => text(v as string | null)),
        ...[r.date, r.startTime, r.endTime, r.durationMinutes, r.paidBreakMinutes, r.unpaidBreakMinutes, r.payableMinutes],
        money(r.payableHours as number),
        wage(r.hourlyWage as number),
        money(r.pay as number),
        ...[r.regularMinutes, r.overtimeMinutes, r.doubleTimeMinutes, r.overtimeRate],
        ...[r.overtimePremium, r.doubleTimePremium].map((v) => money(v as number)),
        r.mealPremiumMinutes,
        money(r.mealPremium as number),
        r.restGapMinutes,
        r.restGapRate ?? "",
        ...[r.restGapPremium, r.predictabilityPay].map((v) => money(v as number)),
        r.kind,
      ].join(","),
    );
    // Decoded as UTF-8: a byte written wrongly would read as U+FFFD.
    expect((csv.text as string).split("\r\n").slice(1)).toEqual([...lines, ""]);
    expect(lines.some((line) => line.includes(`,"Zoë ""Ångström"", Jr.",'=HYPERLINK(1),"P,1",Los Angeles,`))).toBe(true);
  });

  it("pays a location without a profile, whose shifts skip the labor rules, as one whose profile's rules owe nothing", async () => {
    // Five days of 7.5 payable hours with the meal inside the first five: no overtime of either kind, no premium.
    const [cal, pat] = [await worker(), await worker()];
    for (const day of ["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12", "2026-03-13"]) {
      await work(cal, "ca", day, "09:00", "17:00", [["12:00", "12:30"]]);
      await work(pat, "plain", day, "09:00", "17:00", [["12:00", "12:30"]]);
    }
    // Every column but the shift, the worker and the location.
    const figures = async (workerId: string) =>
      (await exported(workerId)).map((row) => Object.entries(row).filter(([column]) => !["shift_id", "employee", "location"].includes(column)));
    const withRules = await figures(cal);
    expect(withRules).toHaveLength(5);
    expect(Object.fromEntries(withRules[0])).toMatchObject({
      payable_minutes: "450",
      pay: "140.63",
      regular_minutes: "450",
      overtime_rate: "1.5",
      meal_premium: "0.00",
    });
    expect(await figures(pat)).toEqual(withRules);
  });
});
