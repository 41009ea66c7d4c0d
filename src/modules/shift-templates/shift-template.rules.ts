import { DateTime } from "luxon";
import { invalidField } from "../../errors/app-error";

/** A local time of day, `HH:MM` on the 24-hour clock. */
export const TIME_OF_DAY = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

export function parseTimeOfDay(value: string, field: string): string {
  if (typeof value !== "string" || !TIME_OF_DAY.test(value)) throw invalidField(field, `${field} must be a local time of day such as 09:00 or 22:30`);
  return value;
}

/** Minutes after midnight of an `HH:MM` time of day. */
export function minuteOfDay(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** A template's length in minutes: an end earlier than the start is on the next day. */
export function templateMinutes(startTime: string, endTime: string): number {
  const length = minuteOfDay(endTime) - minuteOfDay(startTime);
  return length > 0 ? length : length + 24 * 60;
}

/** The instant of wall time `time` on `date` (or the day after, with `nextDay`) in `zone`. */
export function wallTime(date: string, time: string, zone: string, nextDay = false): Date {
  const day = DateTime.fromISO(date, { zone }).plus({ days: nextDay ? 1 : 0 });
  return day.set({ hour: Number(time.slice(0, 2)), minute: Number(time.slice(3, 5)), second: 0, millisecond: 0 }).toJSDate();
}

/** The instants a template's shift on `date` starts and ends at in `zone`. */
export function templateTimes(template: { startTime: string; endTime: string }, date: string, zone: string): { startsAt: Date; endsAt: Date } {
  const overnight = minuteOfDay(template.endTime) <= minuteOfDay(template.startTime);
  return { startsAt: wallTime(date, template.startTime, zone), endsAt: wallTime(date, template.endTime, zone, overnight) };
}

/** A fixed break's start: on the shift's first day, or the next one when it comes before the shift's start (overnight shifts). */
export function breakStart(shiftStartTime: string, breakTime: string, date: string, zone: string): Date {
  return wallTime(date, breakTime, zone, minuteOfDay(breakTime) < minuteOfDay(shiftStartTime));
}
