import { DateTime } from "luxon";

/** Writing RFC 5545 iCalendar text: lines, values, time zones. Pure functions, no database. */

const CRLF = "\r\n";
const MAX_LINE_OCTETS = 75;

/** A TEXT value with its backslashes, semicolons, commas and line breaks escaped; other control characters dropped. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n")
    .replace(/[\u0000-\u001f\u007f]/g, "");
}

/** One content line folded at 75 octets (a continuation starts with a space), never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, "utf8");
    if (octets + size > MAX_LINE_OCTETS) {
      parts.push(current);
      current = " ";
      octets = 1;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join(CRLF);
}

/** A UTC DATE-TIME value: `20260302T140000Z`. */
export function utcStamp(instant: Date): string {
  return instant.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/** A local DATE-TIME value (no zone: the TZID parameter names it): `20260302T090000`. */
export function localStamp(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toFormat("yyyyMMdd'T'HHmmss");
}

/** A DATE value: `20260302`. */
export function dateStamp(date: string): string {
  return date.replace(/-/g, "");
}

function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
}

interface Transition {
  at: Date;
  from: number;
  to: number;
}

const DAY_MS = 86_400_000;

/** The zone's changes of offset between two instants, each found to the minute. */
function transitions(zone: string, from: Date, to: Date): Transition[] {
  const offsetAt = (ms: number) => DateTime.fromMillis(ms, { zone }).offset;
  const found: Transition[] = [];
  for (let day = from.getTime(); day < to.getTime(); day += DAY_MS) {
    const before = offsetAt(day);
    const after = offsetAt(day + DAY_MS);
    if (before === after) continue;
    let low = day;
    let high = day + DAY_MS;
    while (high - low > 60_000) {
      const middle = low + Math.floor((high - low) / 120_000) * 60_000;
      if (offsetAt(middle) === before) low = middle;
      else high = middle;
    }
    found.push({ at: new Date(high), from: before, to: after });
  }
  return found;
}

/**
 * The VTIMEZONE of an IANA zone, with every change of offset from a year and a month before
 * `from` (so that the first change before the window is there) to `to`, each as an observance with
 * its own onset: what a calendar program needs to place the feed's local times, DST included.
 * A zone without changes there has one standard observance.
 */
export function vtimezone(zone: string, from: Date, to: Date): string[] {
  const changes = transitions(zone, new Date(from.getTime() - 400 * DAY_MS), to);
  const lines = ["BEGIN:VTIMEZONE", `TZID:${zone}`];
  if (!changes.length) {
    const offset = utcOffset(DateTime.fromJSDate(from, { zone }).offset);
    return [...lines, "BEGIN:STANDARD", "DTSTART:19700101T000000", `TZOFFSETFROM:${offset}`, `TZOFFSETTO:${offset}`, "END:STANDARD", "END:VTIMEZONE"];
  }
  const standard = Math.min(...changes.flatMap((c) => [c.from, c.to]));
  for (const change of changes) {
    const kind = change.to > standard ? "DAYLIGHT" : "STANDARD";
    // The onset is the wall time just before the change, read in the offset it changes from.
    const onset = DateTime.fromMillis(change.at.getTime(), { zone: "UTC" }).plus({ minutes: change.from }).toFormat("yyyyMMdd'T'HHmmss");
    lines.push(`BEGIN:${kind}`, `DTSTART:${onset}`, `TZOFFSETFROM:${utcOffset(change.from)}`, `TZOFFSETTO:${utcOffset(change.to)}`, `END:${kind}`);
  }
  return [...lines, "END:VTIMEZONE"];
}

/** Unfolded content lines joined into the iCalendar object's text: every line folded and ended with CRLF. */
export function calendarText(lines: string[]): string {
  return lines.map((line) => foldLine(line) + CRLF).join("");
}
