import { TestService } from "../support/harness";
import { fileTimeOff } from "../support/time-off";
import { scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";

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

  const shift = (workerId: string, day: string, from: string, to: string, extra: object = {}) => ({ workerId, roleId: w.roleId, startTime: `${day}T${from}:00`, endTime: `${day}T${to}:00`, ...extra });

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
      message: "The shift starting 2026-03-11T10:00:00.000-04:00 falls in approved time off from 2026-03-11T00:00:00.000-04:00 to 2026-03-12T00:00:00.000-04:00",
      citation: "Approved time off",
      premium: null,
    },
    {
      // ORS 653.442: 8 h of rest, 2 h of Tuesday inside the 10 h; 2 × $20 × 0.5 = $20.
      ruleId: "REST_BETWEEN_SHIFTS",
      severity: "warning",
      workerId: ann.id,
      entryIds: [mondayDraft, entries.tue],
      message: "Only 8 h of rest between the shift ending 2026-03-09T23:00:00.000-04:00 and the one starting 2026-03-10T07:00:00.000-04:00; the minimum is 10 h",
      citation: "ORS 653.442; OAR 839-026-0040",
      premium: { hours: 2, amount: 20 },
    },
    {
      // Saturday ends 22:00, Sunday opens 07:00: 9 h of rest, 1 h inside; 1 × $20 × 0.5 = $10.
      ruleId: "REST_BETWEEN_SHIFTS",
      severity: "warning",
      workerId: ann.id,
      entryIds: [entries.sat, entries.sun],
      message: "Only 9 h of rest between the shift ending 2026-03-14T22:00:00.000-04:00 and the one starting 2026-03-15T07:00:00.000-04:00; the minimum is 10 h",
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

  const sorted = (list: { ruleId: string; workerId: string; entryIds: string[] }[]) => [...list].sort((a, b) => `${a.ruleId}${a.workerId}${a.entryIds}`.localeCompare(`${b.ruleId}${b.workerId}${b.entryIds}`));

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
    expect((await api.post(`/api/organizations/${w.org.id}/locations/${other}/schedules/compliance-check`, { startDate: "2026-03-09", endDate: "2026-03-15" })).body).toEqual({ startDate: "2026-03-09", endDate: "2026-03-15", violations: [] });
  });

  it("refuses a bad range and workers", async () => {
    const api = t.as(w.manager);
    expect((await api.post(`${w.base}/schedules/compliance-check`, { startDate: "2026-03-15", endDate: "2026-03-09" })).status).toBe(400);
    expect((await api.post(`${w.base}/schedules/compliance-check`, { startDate: "2026-03-09" })).status).toBe(400);
    const worker = await w.worker();
    expect((await t.as(worker.token).post(`${w.base}/schedules/compliance-check`, { startDate: "2026-03-09", endDate: "2026-03-15" })).status).toBe(403);
  });
});
