import { DateTime } from "luxon";
import { invalidField } from "../../../errors/app-error";
import { addDays, localDate, MAX_RANGE_DAYS, startOfLocalDay } from "../../../common/time";
import { DayHours } from "./request.entity";

const HOUR_MS = 3_600_000;

/** Hours exact to a millionth: what the ledger stores. */
export const exactHours = (hours: number) => Math.round(hours * 1e6) / 1e6;

/** The calendar days (in `zone`) a request from `start` to `end` touches. */
export function requestDays(start: Date, end: Date, zone: string): string[] {
  const first = localDate(start, zone);
  const last = localDate(new Date(end.getTime() - 1), zone);
  const days: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) {
    days.push(day);
    if (days.length > MAX_RANGE_DAYS) throw invalidField("endTime", `A request may span at most ${MAX_RANGE_DAYS} days`);
  }
  return days;
}

/**
 * Hours off per day when the request does not say: a full day for an all-day request, else the
 * part of the range that falls inside each day.
 */
export function defaultHourConfiguration(start: Date, end: Date, zone: string, isAllDay: boolean, fullDayHours: number): DayHours[] {
  return requestDays(start, end, zone).map((date) => {
    if (isAllDay) return { date, hours: fullDayHours };
    const dayStart = startOfLocalDay(date, zone).getTime();
    const dayEnd = startOfLocalDay(addDays(date, 1), zone).getTime();
    const overlap = Math.min(end.getTime(), dayEnd) - Math.max(start.getTime(), dayStart);
    return { date, hours: exactHours(Math.max(0, overlap) / HOUR_MS) };
  });
}

/** A given hourConfiguration: each day once, inside the request's days; sorted by date. */
export function checkHourConfiguration(days: DayHours[], start: Date, end: Date, zone: string): DayHours[] {
  if (!days.length) throw invalidField("hourConfiguration", "hourConfiguration needs at least one day");
  const allowed = new Set(requestDays(start, end, zone));
  const seen = new Set<string>();
  for (const day of days) {
    if (!DateTime.fromISO(day.date, { zone: "UTC" }).isValid || !/^\d{4}-\d{2}-\d{2}$/.test(day.date)) {
      throw invalidField("hourConfiguration", `"${day.date}" is not a date in the form YYYY-MM-DD`);
    }
    if (!allowed.has(day.date)) throw invalidField("hourConfiguration", `${day.date} is not a day of the request (${zone})`);
    if (seen.has(day.date)) throw invalidField("hourConfiguration", `${day.date} is given twice`);
    seen.add(day.date);
  }
  return [...days].map((d) => ({ date: d.date, hours: d.hours })).sort((a, b) => a.date.localeCompare(b.date));
}

export function totalOf(days: DayHours[]): number {
  return exactHours(days.reduce((sum, d) => sum + d.hours, 0));
}
