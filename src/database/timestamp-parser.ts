import { types as pgTypes } from "pg";

/** The driver's own parser, which handles every form PostgreSQL writes. */
export const defaultTimestamptzParser = pgTypes.getTypeParser(pgTypes.builtins.TIMESTAMPTZ) as (text: string) => Date | number | null;

const digit = (text: string, i: number): number => {
  const d = text.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : NaN;
};
const twoDigits = (text: string, i: number): number => digit(text, i) * 10 + digit(text, i + 1);

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar, in integer arithmetic (H.
 * Hinnant's days_from_civil): what Date.UTC answers, without its call, for every shift's two times.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468;
}

/**
 * Reads PostgreSQL's `timestamptz` text (`2026-03-02 14:00:00.123456+05:30`) into a Date without
 * the regular expressions of the default parser, which cost more than anything else a long list
 * of shifts did in its database driver. Years before 1000, BC and infinity go to the default parser.
 * Fractions beyond milliseconds are cut, as the default parser (and a Date) does.
 */
export function parseTimestamptz(text: string): Date | number | null {
  return readCommonTimestamptz(text) ?? defaultTimestamptzParser(text);
}

/** The common form only (years 1000–9999 with an offset); undefined for anything else. */
export function readCommonTimestamptz(text: string): Date | undefined {
  const ms = readCommonTimestamptzMs(text);
  return ms === undefined ? undefined : new Date(ms);
}

/** `readCommonTimestamptz` in epoch milliseconds, without a Date, of the text from `from` up to `to`. */
function readCommonTimestamptzMs(text: string, from = 0, to = text.length): number | undefined {
  if (to - from < 22 || text.charCodeAt(from + 4) !== 45 || text.charCodeAt(from + 10) !== 32 || digit(text, from) === 0) return undefined;
  const year = twoDigits(text, from) * 100 + twoDigits(text, from + 2);
  const month = twoDigits(text, from + 5);
  const day = twoDigits(text, from + 8);
  const hour = twoDigits(text, from + 11);
  const minute = twoDigits(text, from + 14);
  const second = twoDigits(text, from + 17);
  let i = from + 19;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    i++;
    for (let scale = 100; i < to && digit(text, i) >= 0; i++, scale /= 10) if (scale >= 1) ms += digit(text, i) * scale;
  }
  const sign = text.charCodeAt(i) === 43 ? 1 : text.charCodeAt(i) === 45 ? -1 : 0;
  if (!sign) return undefined;
  let offsetSeconds = twoDigits(text, i + 1) * 3600;
  i += 3;
  for (let unit = 60; unit >= 1 && i < to && text.charCodeAt(i) === 58; unit /= 60, i += 3) offsetSeconds += twoDigits(text, i + 1) * unit;
  const time = (((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60 + second - sign * offsetSeconds) * 1000 + ms;
  // Anything unexpected (a malformed digit, a month or day out of range, a suffix such as " BC") is left to the default parser.
  return i === to && month >= 1 && month <= 12 && day >= 1 && day <= 31 && Number.isFinite(time) ? time : undefined;
}

/**
 * Epoch milliseconds of `timestamptz` text that stands for an instant (not infinity): all of `text`,
 * or the part from `from` up to `to` (a field of a longer text, read without cutting it out).
 */
export function timestamptzMs(text: string, from = 0, to = text.length): number {
  const common = readCommonTimestamptzMs(text, from, to);
  if (common !== undefined) return common;
  const field = from === 0 && to === text.length ? text : text.slice(from, to);
  const parsed = defaultTimestamptzParser(field);
  if (!(parsed instanceof Date)) throw new Error(`Not an instant: ${field}`);
  return parsed.getTime();
}

pgTypes.setTypeParser(pgTypes.builtins.TIMESTAMPTZ, parseTimestamptz);
