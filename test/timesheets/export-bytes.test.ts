import { TestOrganization, TestService } from "../support/harness";

/**
 * The CSV export is written byte by byte for speed (shift-export.csv.ts); here it is checked against
 * its JSON rows written as CSV the plain way, and the pay of a location without a compliance
 * profile (whose shifts skip the labor rules) against one whose profile's rules apply but owe nothing.
 */
describe("payroll export, CSV bytes", () => {
  let t: TestService;
  let org: TestOrganization;
  let roleId: string;
  const loc: Record<"ca" | "plain", string> = { ca: "", plain: "" };
  const RANGE = "startDate=2026-03-09&endDate=2026-03-15";

  beforeAll(async () => {
    t = await TestService.start({ now: "2026-03-20T17:00:00.000Z" });
    org = await t.organization("Bytes Co");
    const api = t.as(org.token);
    roleId = (await api.post(`/api/organizations/${org.id}/roles`, { name: 'Cook, "line"', hourlyWage: 18.3333 })).body.id;
    for (const [key, name, preset] of [
      ["ca", "Los Ángeles", "US_CA"],
      ["plain", "=Reno", null],
    ] as const) {
      loc[key] = (await api.post(`/api/organizations/${org.id}/locations`, { name, timezone: "America/Los_Angeles" })).body.id;
      if (preset) expect((await api.patch(`/api/organizations/${org.id}/locations/${loc[key]}/compliance`, { preset })).status).toBe(200);
    }
  });
  afterAll(() => t.stop());

  const worker = async (name: string, fields: Record<string, string> = {}) =>
    (await t.staffWithToken(org, "Worker", { name, roleIds: [roleId], locationIds: Object.values(loc), ...fields })).staff.id;

  /** A worked shift, local times, with an unpaid break [from, to] if given. */
  const work = async (workerId: string, where: keyof typeof loc, day: string, from: string, to: string, meal?: [string, string]) => {
    const res = await t.as(org.token).post("/api/timesheets", {
      employeeId: workerId,
      locationId: loc[where],
      roleId,
      startTime: `${day}T${from}:00`,
      endTime: `${day}T${to}:00`,
      breaks: meal ? [{ startTime: `${day}T${meal[0]}:00`, endTime: `${day}T${meal[1]}:00`, paid: false }] : [],
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  };

  const WEEK = ["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12", "2026-03-13"];

  /** RFC 4180 quoting with the formula guard, as docs/rest.md describes the export's typed text. */
  const text = (value: string | null) => {
    if (value === null) return "";
    const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
  };
  const money = (n: number) => n.toFixed(2);
  const wage = (n: number) => (Number.isInteger(n) ? n.toFixed(2) : String(n).split(".")[1].length === 1 ? n.toFixed(2) : String(n));

  it("writes each JSON row's fields as CSV, typed text quoted and guarded, non-ASCII text as UTF-8", async () => {
    const zoe = await worker('Zoë "Ångström", Jr.', { externalEmployeeId: "=HYPERLINK(1)", payrollId: "P,1" });
    const ann = await worker("Ann");
    // Ten hours without a meal at the California location: daily overtime and a meal premium.
    await work(zoe, "ca", "2026-03-09", "07:00", "17:00");
    // Six long days at the plain one: weekly overtime by the organization's settings.
    for (const day of [...WEEK, "2026-03-14"]) await work(ann, "plain", day, "08:00", "17:30", ["12:00", "12:30"]);
    const api = t.as(org.token);
    const csv = await api.get(`/api/timesheets/export?${RANGE}`);
    const json = await api.get(`/api/timesheets/export?${RANGE}&format=json`);
    expect(csv.status).toBe(200);
    expect(json.status).toBe(200);
    // Decoded as UTF-8: a byte written wrongly would read as U+FFFD.
    const [header, ...lines] = (csv.text as string).split("\r\n");
    expect(header.split(",")).toHaveLength(29);
    type Row = Record<string, string | number | null>;
    const rows: Row[] = json.body;
    expect(rows.length).toBe(7);
    // Premiums of both kinds are among them, so their columns are written from non-zero figures too.
    expect(rows.some((r) => (r.mealPremium as number) > 0)).toBe(true);
    expect(rows.some((r) => (r.overtimePremium as number) > 0)).toBe(true);
    const written = rows.map((r) =>
      [
        r.shiftId,
        text(r.employee as string),
        text(r.externalEmployeeId as string | null),
        text(r.payrollId as string | null),
        text(r.location as string),
        text(r.role as string),
        r.date,
        r.startTime,
        r.endTime,
        r.durationMinutes,
        r.paidBreakMinutes,
        r.unpaidBreakMinutes,
        r.payableMinutes,
        money(r.payableHours as number),
        wage(r.hourlyWage as number),
        money(r.pay as number),
        r.regularMinutes,
        r.overtimeMinutes,
        r.doubleTimeMinutes,
        r.overtimeRate,
        money(r.overtimePremium as number),
        money(r.doubleTimePremium as number),
        r.mealPremiumMinutes,
        money(r.mealPremium as number),
        r.restGapMinutes,
        r.restGapRate ?? "",
        money(r.restGapPremium as number),
        money(r.predictabilityPay as number),
        r.kind,
      ].join(","),
    );
    expect(lines).toEqual([...written, ""]);
  });

  it("pays a location without a profile as one whose profile's rules owe nothing", async () => {
    // Five days of 7.5 payable hours with a meal inside the first five: no daily or weekly overtime, no premium anywhere.
    const [ca, plain] = [await worker("Cal"), await worker("Pat")];
    for (const day of WEEK) {
      await work(ca, "ca", day, "09:00", "17:00", ["12:00", "12:30"]);
      await work(plain, "plain", day, "09:00", "17:00", ["12:00", "12:30"]);
    }
    const rowsOf = async (employeeId: string) => {
      const res = await t.as(org.token).get(`/api/timesheets/export?${RANGE}&employeeId=${employeeId}`);
      expect(res.status).toBe(200);
      // From the date on (no field there holds a comma): the times and every figure.
      return res.text
        .split("\r\n")
        .slice(1)
        .map((line: string) => line.split(",").slice(-23).join(","));
    };
    const withRules = await rowsOf(ca);
    expect(withRules).toHaveLength(WEEK.length + 1);
    expect(withRules[0]).toBe(
      "2026-03-09,2026-03-09T09:00:00.000-07:00,2026-03-09T17:00:00.000-07:00,480,0,30,450,7.50,18.3333,137.50,450,0,0,1.5,0.00,0.00,0,0.00,0,,0.00,0.00,SHIFT",
    );
    expect(await rowsOf(plain)).toEqual(withRules);
  });
});
