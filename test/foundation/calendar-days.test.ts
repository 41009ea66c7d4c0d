import { DateTime } from "luxon";
import { addDays, daysBetween, parseDate } from "../../src/common/time";

/** The calendar's answers, from luxon: what the arithmetic on days must match. */
const calendarAdd = (date: string, days: number) => DateTime.fromISO(date, { zone: "UTC" }).plus({ days }).toISODate();
const calendarDiff = (from: string, to: string) => Math.round(DateTime.fromISO(to, { zone: "UTC" }).diff(DateTime.fromISO(from, { zone: "UTC" }), "days").days);

describe("calendar days", () => {
  const days: string[] = [];
  for (let day = "1999-12-20"; day <= "2001-03-10"; day = calendarAdd(day, 1)!) days.push(day);
  // Century years (1900, 2100 not leap; 2000 leap) and the edges of years 1000–9999, past which luxon answers.
  days.push("1000-01-01", "1000-03-01", "1900-02-28", "1900-03-01", "2100-02-28", "9999-12-30", "9999-12-31", "0999-12-31", "0001-01-01");

  it("steps through days as the calendar does: month ends, leap days, centuries, the years' edges", () => {
    for (const day of days)
      for (const n of [-36525, -400, -366, -365, -31, -1, 0, 1, 28, 29, 59, 365, 366, 36525]) expect(addDays(day, n)).toBe(calendarAdd(day, n));
  });

  it("counts the days between two days as the calendar does", () => {
    const others = ["1000-01-01", "1999-12-31", "2000-02-29", "2000-03-01", "2024-02-29", "9999-12-31", "0999-12-31"];
    for (const from of days) for (const to of others) expect(daysBetween(from, to)).toBe(calendarDiff(from, to));
  });

  it("takes real days only, and says why another is not one", () => {
    expect(parseDate("2028-02-29", "startDate")).toBe("2028-02-29");
    expect(parseDate("0999-01-31", "startDate")).toBe("0999-01-31");
    expect(() => parseDate("2026-02-29", "startDate")).toThrow("startDate: 2026-02-29 is not a date: February 2026 has 28 days");
    expect(() => parseDate("2026-04-31", "endDate")).toThrow("April 2026 has 30 days");
    expect(() => parseDate("2026-13-01", "endDate")).toThrow("there is no month 13");
    expect(() => parseDate("2026-3-1", "endDate")).toThrow("endDate must be a date in the form YYYY-MM-DD");
  });
});
