import { DateTime, IANAZone } from "luxon";
import { invalidField } from "../errors/app-error";

// Local times and days are read through the per-zone offsets kept in local-time.ts.
export { formatLocal, localDate } from "./local-time";

export function isValidTimeZone(zone: string): boolean {
  return typeof zone === "string" && zone.length <= 64 && IANAZone.isValidZone(zone);
}

export function requireTimeZone(zone: string, field = "timezone"): string {
  if (!isValidTimeZone(zone)) throw invalidField(field, `"${zone}" is not an IANA time zone name such as America/New_York`);
  return zone;
}

/** Minutes east of UTC in `zone` at `instant` (-300 for New York in winter, 330 for Kolkata). */
export function utcOffsetMinutes(instant: Date, zone: string): number {
  return DateTime.fromJSDate(instant, { zone }).offset;
}

/** UTC with milliseconds: `2026-03-02T14:00:00.000Z`. */
export function formatUtc(instant: Date): string {
  return instant.toISOString();
}

const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Reads a timestamp input: with an offset or `Z` it is that instant; without one it is wall time
 * in `zone`. Anything else is a 400 naming the field.
 */
export function parseTimestamp(value: string, zone: string, field: string): Date {
  if (typeof value !== "string" || !ISO_DATE_TIME.test(value.trim())) {
    throw invalidField(field, `${field} must be an ISO 8601 timestamp such as 2026-03-02T09:00:00-05:00`);
  }
  const text = value.trim();
  const parsed = HAS_OFFSET.test(text) ? DateTime.fromISO(text, { setZone: true }) : DateTime.fromISO(text, { zone });
  if (!parsed.isValid) throw invalidField(field, `${field}: ${impossibleDateOrTime(text)}`);
  return parsed.toJSDate();
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const DAY_MS = 86_400_000;
/** Days of years 1000–9999, which Date writes as `YYYY-MM-DD` just as luxon does; others go to luxon. */
const FIRST_DAY_MS = Date.UTC(1000, 0, 1);
const LAST_DAY_MS = Date.UTC(9999, 11, 31);

/**
 * Midnight UTC of calendar day `date` as epoch milliseconds, NaN when it is not a real day of years
 * 1000–9999. Calendar arithmetic is plain arithmetic on these: lists and eligibility check and step
 * through days on every request, where luxon cost more than the rest of the check.
 */
function dayMs(date: string): number {
  const ms = Date.parse(`${date}T00:00:00Z`);
  // Date.parse reads 2026-02-30 as 2 March: a day is real only if it writes back the same.
  return ms >= FIRST_DAY_MS && ms <= LAST_DAY_MS && new Date(ms).toISOString().startsWith(date) ? ms : NaN;
}

/** Checks a `YYYY-MM-DD` calendar date and returns it unchanged. */
export function parseDate(value: string, field: string): string {
  if (typeof value !== "string" || !ISO_DATE.test(value)) throw invalidField(field, `${field} must be a date in the form YYYY-MM-DD`);
  if (Number.isNaN(dayMs(value)) && !DateTime.fromISO(value, { zone: "UTC" }).isValid) throw invalidField(field, `${field}: ${impossibleDateOrTime(value)}`);
  return value;
}

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/**
 * Why text in the right form names no real moment, in the caller's own terms (2026-02-30, 24:30),
 * rather than the date library's.
 */
function impossibleDateOrTime(text: string): string {
  const [year, month, day] = text.slice(0, 10).split("-").map(Number);
  if (month < 1 || month > 12) return `${text.slice(0, 10)} is not a date: there is no month ${month} (01 to 12)`;
  const days = DateTime.utc(year, month).daysInMonth!;
  if (day < 1 || day > days) return `${text.slice(0, 10)} is not a date: ${MONTH_NAMES[month - 1]} ${year} has ${days} days`;
  const [, time, hour, minute, second = "0", offset] = /T((\d{2}):(\d{2})(?::(\d{2}))?)[.\d]*(.*)$/.exec(text)!;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return `${time} is not a time of day (00:00 to 23:59:59)`;
  return `${offset} is not a UTC offset (-12:00 to +14:00, or Z)`;
}

/** The first instant of calendar day `date` in `zone`. */
export function startOfLocalDay(date: string, zone: string): Date {
  return DateTime.fromISO(date, { zone }).startOf("day").toJSDate();
}

export function addDays(date: string, days: number): string {
  const ms = dayMs(date) + days * DAY_MS;
  if (ms >= FIRST_DAY_MS && ms <= LAST_DAY_MS && Number.isInteger(days)) return new Date(ms).toISOString().slice(0, 10);
  return DateTime.fromISO(date, { zone: "UTC" }).plus({ days }).toISODate()!;
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD`). */
export function daysBetween(from: string, to: string): number {
  const days = (dayMs(to) - dayMs(from)) / DAY_MS;
  if (!Number.isNaN(days)) return days;
  return Math.round(DateTime.fromISO(to, { zone: "UTC" }).diff(DateTime.fromISO(from, { zone: "UTC" }), "days").days);
}

export const MAX_RANGE_DAYS = 366;

/**
 * Validates an inclusive date range of a list: both dates well-formed, start not after end, and at
 * most 366 days long.
 */
export function parseDateRange(start: string, end: string, startField = "startDate", endField = "endDate"): { start: string; end: string } {
  parseDate(start, startField);
  parseDate(end, endField);
  if (end < start) throw invalidField(endField, `${endField} must not be before ${startField}`);
  if (daysBetween(start, end) + 1 > MAX_RANGE_DAYS) {
    throw invalidField(endField, `A date range may span at most ${MAX_RANGE_DAYS} days`);
  }
  return { start, end };
}

/** Whole minutes between two instants (floored). */
export function minutesBetween(start: Date, end: Date): number {
  return Math.floor((end.getTime() - start.getTime()) / 60000);
}
