import { types as pgTypes } from "pg";

/** The driver's own parser, which handles every form PostgreSQL writes. */
export const defaultTimestamptzParser = pgTypes.getTypeParser(pgTypes.builtins.TIMESTAMPTZ) as (text: string) => Date | number | null;

const digit = (text: string, i: number): number => {
  const d = text.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : NaN;
};
const twoDigits = (text: string, i: number): number => digit(text, i) * 10 + digit(text, i + 1);

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
  const time = Date.UTC(year, month - 1, day, hour, minute, second, ms) - sign * offsetSeconds * 1000;
  // Anything unexpected (a malformed digit, a suffix such as " BC") is left to the default parser.
  return i === to && Number.isFinite(time) ? time : undefined;
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
