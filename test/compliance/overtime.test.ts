import { PRESET_FIGURES, CompliancePreset } from "../../src/modules/compliance/compliance-presets";
import { payCents } from "../../src/common/money";
import { OvertimeSplit, splitWorkweek } from "../../src/modules/compliance/overtime";

/**
 * California overtime worked by hand. Cal. Labor Code §510(a): "Any work in excess of eight hours
 * in one workday and any work in excess of 40 hours in any one workweek and the first eight hours
 * worked on the seventh day of work in any one workweek shall be compensated at the rate of no less
 * than one and one-half times the regular rate … Any work in excess of 12 hours in one day shall be
 * compensated at the rate of no less than twice the regular rate … any work in excess of eight
 * hours on any seventh day of a workweek shall be compensated at the rate of no less than twice".
 */
const CA = PRESET_FIGURES[CompliancePreset.US_CA];
const H = 60;
const week = (hours: number[]) => hours.map((h, i) => ({ date: `2026-03-${String(9 + i).padStart(2, "0")}`, minutes: h * H }));
/** Each figure of a split priced at its rate, rounded once to the cent. */
const overtimePay = (s: OvertimeSplit, wage: string) => ({
  regularCents: payCents(s.regularMinutes, wage),
  overtimeCents: payCents(s.overtimeMinutes, wage, 1.5),
  doubleTimeCents: payCents(s.doubleTimeMinutes, wage, 2),
});
const inHours = (s: { regularMinutes: number; overtimeMinutes: number; doubleTimeMinutes: number }) => [
  s.regularMinutes / H,
  s.overtimeMinutes / H,
  s.doubleTimeMinutes / H,
];

describe("California overtime (US_CA)", () => {
  it("a 10-hour day: 8 regular, 2 at 1.5×; at $20: $160 + $60", () => {
    const { total } = splitWorkweek(week([10]), CA);
    expect(inHours(total)).toEqual([8, 2, 0]);
    expect(overtimePay(total, "20.0000")).toEqual({ regularCents: 16000, overtimeCents: 6000, doubleTimeCents: 0 });
  });

  it("a 13-hour day: 8 regular, 4 at 1.5×, 1 at 2×", () => {
    expect(inHours(splitWorkweek(week([13]), CA).total)).toEqual([8, 4, 1]);
  });

  it("five 9-hour days: 5 daily overtime hours and no weekly overtime on top (40 regular, no hour paid twice)", () => {
    expect(inHours(splitWorkweek(week([9, 9, 9, 9, 9]), CA).total)).toEqual([40, 5, 0]);
  });

  it("six 8-hour days: the sixth day's 8 hours are over 40 in the week, at 1.5×", () => {
    const { days, total } = splitWorkweek(week([8, 8, 8, 8, 8, 8]), CA);
    expect(inHours(total)).toEqual([40, 8, 0]);
    expect(inHours(days[5])).toEqual([0, 8, 0]);
  });

  it("seven days in a row: the seventh day's first 8 hours at 1.5×, beyond at 2×", () => {
    // Mon–Fri 8 h: 40 regular; Saturday 8 h over 40: 1.5×; Sunday, the seventh day, 10 h: 8 at 1.5×, 2 at 2×.
    const { days, total } = splitWorkweek(week([8, 8, 8, 8, 8, 8, 10]), CA);
    expect(inHours(days[6])).toEqual([0, 8, 2]);
    expect(inHours(total)).toEqual([40, 16, 2]);
  });

  it("the restaurant week: seven days with a 13-hour Saturday; at $18.75 each figure rounds once", () => {
    // Mon–Fri 8 h = 40 regular. Saturday 13 h: daily 8 + 4 at 1.5× + 1 at 2×, and its 8 daily-regular
    // hours are over 40 in the week: 12 at 1.5×, 1 at 2×. Sunday, the seventh day, 5 h at 1.5×.
    // Totals: 40 regular, 17 at 1.5×, 1 at 2× = 58 h worked, each once.
    // At $18.75: 40 × 18.75 = $750.00; 17 × 28.125 = $478.125 → $478.13; 1 × 37.50 = $37.50.
    const { total } = splitWorkweek(week([8, 8, 8, 8, 8, 13, 5]), CA);
    expect(inHours(total)).toEqual([40, 17, 1]);
    expect(overtimePay(total, "18.7500")).toEqual({ regularCents: 75000, overtimeCents: 47813, doubleTimeCents: 3750 });
  });

  it("a day off breaks the seventh-day rule; without the rule only the weekly threshold counts", () => {
    expect(inHours(splitWorkweek(week([8, 8, 8, 8, 8, 8, 0]), CA).total)).toEqual([40, 8, 0]);
    const weeklyOnly = { ...PRESET_FIGURES[CompliancePreset.NONE], weeklyOvertimeHours: 40 };
    expect(inHours(splitWorkweek(week([13, 13, 13, 13]), weeklyOnly).total)).toEqual([40, 12, 0]);
    expect(inHours(splitWorkweek(week([13, 13, 13, 13]), PRESET_FIGURES[CompliancePreset.NONE]).total)).toEqual([52, 0, 0]);
  });

  it("refuses more than seven days or a day twice", () => {
    expect(() => splitWorkweek(week([1, 1, 1, 1, 1, 1, 1, 1]), CA)).toThrow();
    expect(() =>
      splitWorkweek(
        [
          { date: "2026-03-09", minutes: 60 },
          { date: "2026-03-09", minutes: 60 },
        ],
        CA,
      ),
    ).toThrow();
  });
});
