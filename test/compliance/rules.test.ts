import { DateTime } from "luxon";
import { ComplianceFigures, CompliancePreset, ComplianceRules, LOCATION_RULE } from "../../src/modules/compliance/compliance-presets";
import {
  checkSchedule,
  CheckContext,
  dailyHours,
  mealBreaks,
  noticeWindow,
  overTimeOff,
  PlannedBreakSpan,
  PlannedShift,
  restBetweenShifts,
  ScheduleChange,
  shiftLength,
  weeklyHours,
} from "../../src/modules/compliance/compliance-rules";

/**
 * Each rule of each preset on shifts small enough to work by hand; the law's words beside the
 * figure they give (docs/compliance.md has the sources).
 */

const ZONE = "America/Los_Angeles";
const at = (local: string): Date => DateTime.fromISO(local, { zone: ZONE }).toJSDate();
const ctx: CheckContext = { zone: ZONE, weekStart: 1, now: at("2026-03-02T09:00") };
let n = 0;
function shift(from: string, to: string, extra: { wage?: string; breaks?: PlannedBreakSpan[]; worker?: string; checked?: boolean } = {}): PlannedShift {
  n += 1;
  return {
    id: `s${n}`,
    staffId: extra.worker ?? "ann",
    startsAt: at(from),
    endsAt: at(to),
    breaks: extra.breaks ?? [],
    hourlyWage: extra.wage ?? "20.0000",
    checked: extra.checked ?? true,
  };
}
const meal = (from: string, minutes = 30): PlannedBreakSpan => ({ paid: false, durationMinutes: minutes, startsAt: at(from) });
const rules = (preset: CompliancePreset, overrides: Partial<ComplianceFigures> = {}) => new ComplianceRules(preset, overrides);
const premiumOf = (found: { premium: { minutes: number; cents: number } | null }[]) => found.map((v) => v.premium);

describe("rest between shifts (clopening)", () => {
  // A closing shift ending 23:00 and an opening one at 07:00 the next day: 8 hours of rest.
  const clopening = () => [shift("2026-03-09T15:00", "2026-03-09T23:00"), shift("2026-03-10T07:00", "2026-03-10T15:00")];

  it("US_OR: 10 hours of rest, hours inside it at one and one-half times the regular rate", () => {
    // OAR 839-026-0040(1): "an employer may not schedule or require an employee to work: (a) Less
    // than ten hours after the end of the previous calendar day's work shift"; ORS 653.442(2): one
    // and one-half times the regular rate for each hour worked that is less than 10 hours.
    // 8 h of rest: 2 h of the opening shift fall inside the 10 h; premium above regular pay:
    // 2 h × $20 × (1.5 − 1) = $20.00.
    const found = restBetweenShifts(clopening(), rules(CompliancePreset.US_OR), ctx);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ ruleId: "REST_BETWEEN_SHIFTS", severity: "warning", staffId: "ann", citation: "ORS 653.442; OAR 839-026-0040" });
    expect(premiumOf(found)).toEqual([{ minutes: 120, cents: 2000 }]);
  });

  it("US_OR: split shifts within one calendar day and a full 10 hours owe nothing", () => {
    // OAR 839-026-0040(5): "do not apply to 'split shifts' that take place entirely within one calendar day".
    const split = [shift("2026-03-09T07:00", "2026-03-09T11:00"), shift("2026-03-09T17:00", "2026-03-09T23:00")];
    const tenHours = [shift("2026-03-09T13:00", "2026-03-09T21:00"), shift("2026-03-10T07:00", "2026-03-10T15:00")];
    expect(restBetweenShifts([...split, ...tenHours.map((s) => ({ ...s, staffId: "bob" }))], rules(CompliancePreset.US_OR), ctx)).toEqual([]);
  });

  it("US_WA_SEATTLE: time and a half for hours inside 10 hours, rounded once to the cent", () => {
    // Seattle OLS: "Pay time-and-a-half for any hours worked between closing and opening shifts
    // that are separated by less than 10 hours". Closing ends 22:00, opening 07:00: 9 h of rest,
    // 1 h inside; at $18.75: 1 × 18.75 × 0.5 = $9.375 → $9.38 (half away from zero, one rounding).
    const found = restBetweenShifts(
      [shift("2026-03-09T14:00", "2026-03-09T22:00", { wage: "18.7500" }), shift("2026-03-10T07:00", "2026-03-10T12:00", { wage: "18.7500" })],
      rules(CompliancePreset.US_WA_SEATTLE),
      ctx,
    );
    expect(premiumOf(found)).toEqual([{ minutes: 60, cents: 938 }]);
    expect(found[0].citation).toBe("SMC 14.22.035");
  });

  it("US_NY_NYC_FAST_FOOD: a flat $100 per clopening", () => {
    // NYC 311 / DCWP: "$100 premium to work 'clopening' shifts" (§20-1231); 11 h between shifts
    // (unconfirmed, docs/compliance.md). 8 h of rest: 3 h short; the premium is the flat $100.
    const found = restBetweenShifts(clopening(), rules(CompliancePreset.US_NY_NYC_FAST_FOOD), ctx);
    expect(premiumOf(found)).toEqual([{ minutes: 180, cents: 10000 }]);
    expect(found[0].citation).toBe("NYC Admin. Code §20-1231");
  });

  it("US_IL_CHICAGO: hours inside 10 hours at 1.25 times", () => {
    // Chicago Fair Workweek: hours worked less than 10 hours after the previous day's shift at 1.25×.
    // 2 h inside × $20 × 0.25 = $10.00.
    expect(premiumOf(restBetweenShifts(clopening(), rules(CompliancePreset.US_IL_CHICAGO), ctx))).toEqual([{ minutes: 120, cents: 1000 }]);
  });

  it("NONE and US_CA: no rest rule; a location's own minimum has no premium and cites the location", () => {
    expect(restBetweenShifts(clopening(), rules(CompliancePreset.NONE), ctx)).toEqual([]);
    expect(restBetweenShifts(clopening(), rules(CompliancePreset.US_CA), ctx)).toEqual([]);
    const own = restBetweenShifts(clopening(), rules(CompliancePreset.US_CA, { minRestHours: 9 }), ctx);
    expect(own).toMatchObject([{ citation: LOCATION_RULE, premium: null }]);
  });

  it("only reports pairs that touch the checked shifts", () => {
    const [a, b] = clopening();
    expect(
      restBetweenShifts(
        [
          { ...a, checked: false },
          { ...b, checked: false },
        ],
        rules(CompliancePreset.US_OR),
        ctx,
      ),
    ).toEqual([]);
    expect(restBetweenShifts([{ ...a, checked: false }, b], rules(CompliancePreset.US_OR), ctx)).toHaveLength(1);
  });
});

describe("meal breaks (US_CA)", () => {
  const ca = rules(CompliancePreset.US_CA);

  it("a shift over five hours needs a 30-minute unpaid break starting by the end of the fifth hour", () => {
    // §512(a): "shall not employ an employee for a work period of more than five hours per day
    // without providing the employee with a meal period of not less than 30 minutes".
    // 09:00–17:00: the break must start by 14:00. 14:30 is late; 13:30 is in time; a 20-minute or
    // a paid break does not count.
    const late = shift("2026-03-09T09:00", "2026-03-09T17:00", { breaks: [meal("2026-03-09T14:30")] });
    const onTime = shift("2026-03-09T09:00", "2026-03-09T17:00", { breaks: [meal("2026-03-09T13:30")] });
    const short = shift("2026-03-09T09:00", "2026-03-09T17:00", { breaks: [meal("2026-03-09T12:00", 20)] });
    const paid = shift("2026-03-09T09:00", "2026-03-09T17:00", { breaks: [{ paid: true, durationMinutes: 30, startsAt: at("2026-03-09T12:00") }] });
    const unfixed = shift("2026-03-09T09:00", "2026-03-09T17:00", { breaks: [{ paid: false, durationMinutes: 30, startsAt: null }] });
    const found = mealBreaks([late, onTime, short, paid, unfixed], ca, ctx);
    expect(found.map((v) => v.entryIds[0])).toEqual([late.id, short.id, paid.id, unfixed.id]);
    expect(found[0]).toMatchObject({ ruleId: "MEAL_BREAK", severity: "error", citation: "Cal. Labor Code §512(a), §226.7" });
    expect(found[0].message).toContain("2026-03-09T14:00:00.000-07:00");
  });

  it("exactly five hours needs none; over ten hours needs a second break by the end of the tenth hour", () => {
    // §512(a): "more than 10 hours per day without providing the employee with a second meal period
    // of not less than 30 minutes". 07:00–20:00 (13 h): first by 12:00, second by 17:00.
    const five = shift("2026-03-09T09:00", "2026-03-09T14:00");
    const oneBreak = shift("2026-03-10T07:00", "2026-03-10T20:00", { breaks: [meal("2026-03-10T11:00")] });
    const twoBreaks = shift("2026-03-11T07:00", "2026-03-11T20:00", { breaks: [meal("2026-03-11T11:00"), meal("2026-03-11T16:30")] });
    const found = mealBreaks([five, oneBreak, twoBreaks], ca, ctx);
    expect(found).toHaveLength(1);
    expect(found[0].entryIds).toEqual([oneBreak.id]);
    expect(found[0].message).toContain("a second meal break");
  });

  it("the other presets set no meal rule", () => {
    const bare = shift("2026-03-09T07:00", "2026-03-09T20:00");
    for (const preset of [
      CompliancePreset.NONE,
      CompliancePreset.US_OR,
      CompliancePreset.US_WA_SEATTLE,
      CompliancePreset.US_NY_NYC_FAST_FOOD,
      CompliancePreset.US_IL_CHICAGO,
    ]) {
      expect(mealBreaks([bare], rules(preset), ctx)).toEqual([]);
    }
  });
});

describe("hard limits a location sets itself", () => {
  it("a shift longer than the maximum", () => {
    // 13-hour Saturday against a 12-hour maximum.
    const saturday = shift("2026-03-14T09:00", "2026-03-14T22:00");
    const found = shiftLength([saturday, shift("2026-03-13T09:00", "2026-03-13T21:00")], rules(CompliancePreset.US_CA, { maxShiftHours: 12 }), ctx);
    expect(found).toMatchObject([{ ruleId: "MAX_SHIFT_LENGTH", severity: "error", entryIds: [saturday.id], citation: LOCATION_RULE }]);
    expect(found[0].message).toContain("13 h");
    expect(shiftLength([saturday], rules(CompliancePreset.US_CA), ctx)).toEqual([]);
  });

  it("hours of work on one day over the daily cap, unpaid breaks left out", () => {
    // 06:00–11:00 and 15:00–21:30 with a 30-minute unpaid break: 5 + 6 = 11 h of work > 10 h.
    const morning = shift("2026-03-09T06:00", "2026-03-09T11:00");
    const evening = shift("2026-03-09T15:00", "2026-03-09T21:30", { breaks: [meal("2026-03-09T18:00")] });
    const found = dailyHours([morning, evening], rules(CompliancePreset.NONE, { maxDailyHours: 10 }), ctx);
    expect(found).toMatchObject([{ ruleId: "MAX_DAILY_HOURS", entryIds: [morning.id, evening.id] }]);
    expect(found[0].message).toContain("11 h");
    expect(dailyHours([morning, evening], rules(CompliancePreset.NONE, { maxDailyHours: 11 }), ctx)).toEqual([]);
  });

  it("hours of work in a workweek over the weekly cap, weeks starting on the organization's day", () => {
    // Monday to Friday 9 h each = 45 h > 40 h in the week starting Monday 2026-03-09. With weeks
    // starting Wednesday the same shifts split 18 h + 27 h: nothing over.
    const week = ["09", "10", "11", "12", "13"].map((d) => shift(`2026-03-${d}T08:00`, `2026-03-${d}T17:00`));
    const cap = rules(CompliancePreset.NONE, { maxWeeklyHours: 40 });
    const found = weeklyHours(week, cap, ctx);
    expect(found).toMatchObject([{ ruleId: "MAX_WEEKLY_HOURS", entryIds: week.map((s) => s.id) }]);
    expect(found[0].message).toContain("45 h of work planned in the workweek starting 2026-03-09");
    expect(weeklyHours(week, cap, { ...ctx, weekStart: 3 })).toEqual([]);
  });

  it("a shift over approved time off", () => {
    const s = shift("2026-03-09T09:00", "2026-03-09T17:00");
    const off = [
      { staffId: "ann", startsAt: at("2026-03-09T00:00"), endsAt: at("2026-03-10T00:00") },
      { staffId: "bob", startsAt: at("2026-03-08T00:00"), endsAt: at("2026-03-12T00:00") },
    ];
    expect(overTimeOff([s], off, rules(CompliancePreset.NONE), ctx)).toMatchObject([{ ruleId: "TIME_OFF", severity: "error", entryIds: [s.id] }]);
    expect(overTimeOff([s], off.slice(1), rules(CompliancePreset.NONE), ctx)).toEqual([]);
  });
});

describe("changes inside the notice window (predictability pay)", () => {
  // Now is Monday 2026-03-02 09:00; the shifts are 3 and 10 days ahead.
  const published = { startsAt: at("2026-03-05T09:00"), endsAt: at("2026-03-05T17:00") };
  const change = (id: string, before: ScheduleChange["before"], after: ScheduleChange["after"]): ScheduleChange => ({
    id,
    staffId: "ann",
    before,
    after,
    hourlyWage: "20.0000",
  });
  const moved = change("moved", published, { startsAt: at("2026-03-05T11:00"), endsAt: at("2026-03-05T19:00") });
  const reduced = change("reduced", published, { startsAt: at("2026-03-05T09:00"), endsAt: at("2026-03-05T14:00") });
  const added = change("added", null, { startsAt: at("2026-03-05T17:00"), endsAt: at("2026-03-05T21:00") });
  const cancelled = change("cancelled", published, null);
  const tenDaysAhead = change(
    "ten",
    { startsAt: at("2026-03-12T09:00"), endsAt: at("2026-03-12T17:00") },
    { startsAt: at("2026-03-12T10:00"), endsAt: at("2026-03-12T18:00") },
  );
  const fifteenDaysAhead = change("fifteen", null, { startsAt: at("2026-03-17T09:00"), endsAt: at("2026-03-17T17:00") });
  const all = [moved, reduced, added, cancelled, tenDaysAhead, fifteenDaysAhead];
  const byId = (preset: CompliancePreset) => Object.fromEntries(noticeWindow(all, rules(preset), ctx).map((v) => [v.entryIds[0], v.premium]));

  it("US_OR and US_WA_SEATTLE: one hour of pay for added or moved hours, half pay for each hour lost", () => {
    // ORS 653.455(2)(a): "One hour of pay at the employee's regular rate of pay … when the employer
    // … Changes the date or start or end time … with no loss of hours; or … Schedules the employee for
    // an additional work shift"; (b): "One-half times the employee's regular rate of pay per hour for
    // each scheduled hour that the employee does not work when the employer: (A) Subtracts hours …
    // (C) Cancels the employee's work shift". At $20: moved or added 1 × 20 = $20; 8 h → 5 h loses
    // 3 h: 3 × 20 × 0.5 = $30; cancelled 8 h: 8 × 20 × 0.5 = $80. 15 days ahead: outside 14 days.
    const expected = {
      moved: { minutes: 60, cents: 2000 },
      reduced: { minutes: 180, cents: 3000 },
      added: { minutes: 60, cents: 2000 },
      cancelled: { minutes: 480, cents: 8000 },
      ten: { minutes: 60, cents: 2000 },
    };
    expect(byId(CompliancePreset.US_OR)).toEqual(expected);
    expect(byId(CompliancePreset.US_WA_SEATTLE)).toEqual(expected);
    expect(noticeWindow([moved], rules(CompliancePreset.US_OR), ctx)[0]).toMatchObject({
      ruleId: "NOTICE_WINDOW",
      severity: "warning",
      citation: "ORS 653.436, ORS 653.455",
    });
  });

  it("US_NY_NYC_FAST_FOOD: flat premiums by kind of change and notice", () => {
    // §20-1222(a): less than 14 but at least 7 days: $10 (added hours, or moved with no loss), $20
    // (hours subtracted or cancelled); less than 7 days: $15 (added or moved), $45 (subtracted or
    // cancelled). 3 days ahead: moved $15, reduced $45, added $15, cancelled $45; 10 days ahead: moved $10.
    const got = byId(CompliancePreset.US_NY_NYC_FAST_FOOD);
    expect(Object.fromEntries(Object.entries(got).map(([k, v]) => [k, v!.cents]))).toEqual({
      moved: 1500,
      reduced: 4500,
      added: 1500,
      cancelled: 4500,
      ten: 1000,
    });
  });

  it("US_IL_CHICAGO: one hour of pay for any change within 14 days", () => {
    // City of Chicago: "1 hour of Predictability Pay for any shift change within 14 days".
    const got = byId(CompliancePreset.US_IL_CHICAGO);
    expect(Object.values(got)).toEqual(Array(5).fill({ minutes: 60, cents: 2000 }));
  });

  it("NONE and US_CA: no notice rule", () => {
    expect(byId(CompliancePreset.NONE)).toEqual({});
    expect(byId(CompliancePreset.US_CA)).toEqual({});
  });
});

it("checkSchedule lists errors before warnings", () => {
  const a = shift("2026-03-09T15:00", "2026-03-09T23:00");
  const b = shift("2026-03-10T07:00", "2026-03-10T20:00");
  const found = checkSchedule([a, b], [], [], rules(CompliancePreset.US_OR, { maxShiftHours: 12 }), ctx);
  expect(found.map((v) => [v.ruleId, v.severity])).toEqual([
    ["MAX_SHIFT_LENGTH", "error"],
    ["REST_BETWEEN_SHIFTS", "warning"],
  ]);
});
