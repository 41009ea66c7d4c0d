import { ShiftPayCalculator } from "../../src/modules/timesheets/pay/shift-pay";
import { Weekday } from "../../src/common/weekday";

/** Eight hours a day, forty a week, weeks from Monday, at 1.5×; no location has a profile. */
const calculator = () => new ShiftPayCalculator({ weeklyOvertimeHours: 40, dailyOvertimeHours: 8, overtimeRate: 1.5, weekStart: Weekday.Monday }, new Map());

/** The split of the worker's next shift (in time order) of `hours` on the local `day`. */
function split(pay: ShiftPayCalculator, staffId: string, day: string, hours: number) {
  const startMs = Date.parse(`${day}T09:00:00Z`);
  const { regularMinutes, overtimeMinutes, doubleTimeMinutes } = pay.pay({
    staffId,
    locationId: "location",
    day,
    startMs,
    endMs: startMs + hours * 3_600_000,
    payableMinutes: hours * 60,
    hourlyWage: "20",
    breaks: [],
  });
  return [regularMinutes, overtimeMinutes, doubleTimeMinutes];
}

describe("overtime under the organization's settings, shift by shift", () => {
  it("counts a workday across its shifts and a workweek across its days, each worker on their own, afresh each week", () => {
    const pay = calculator();
    // Two shifts on Monday: the second crosses eight hours in the day.
    expect(split(pay, "ana", "2026-03-02", 6)).toEqual([360, 0, 0]);
    expect(split(pay, "ben", "2026-03-02", 10)).toEqual([480, 120, 0]);
    expect(split(pay, "ana", "2026-03-02", 4)).toEqual([120, 120, 0]);
    // Ten hours Tuesday to Friday: two a day over eight; Friday's regular hours reach forty.
    for (const day of ["2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"]) expect(split(pay, "ana", day, 10)).toEqual([480, 120, 0]);
    // Saturday: nothing over eight in the day, everything over forty in the week.
    expect(split(pay, "ana", "2026-03-07", 5)).toEqual([0, 300, 0]);
    // The next Monday starts a new week: only the day's ninth hour is overtime.
    expect(split(pay, "ana", "2026-03-09", 9)).toEqual([480, 60, 0]);
    expect(split(pay, "ana", "2026-03-10", 8)).toEqual([480, 0, 0]);
    // A later shift on an earlier local day (another location's zone) adds to that day, not the last one.
    expect(split(pay, "ana", "2026-03-09", 1)).toEqual([0, 60, 0]);
    expect(split(pay, "ben", "2026-03-09", 8)).toEqual([480, 0, 0]);
  });
});
