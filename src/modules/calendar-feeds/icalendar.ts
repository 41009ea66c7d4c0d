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
  if (line.length <= MAX_LINE_OCTETS && Buffer.byteLength(line, "utf8") <= MAX_LINE_OCTETS) return line;
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
  return instant
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** A DATE value: `20260302`. */
export function dateStamp(date: string): string {
  return date.replace(/-/g, "");
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The wall time `offset` minutes east of UTC at `instant`, as a DATE-TIME value without zone: `20260302T090000`. */
function wallStamp(instant: number, offset: number): string {
  const d = new Date(instant + offset * 60_000);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

interface Transition {
  at: number;
  from: number;
  to: number;
}

const DAY_MS = 86_400_000;
/** How far before a feed's window a zone's changes are listed: back past the last change before it. */
const RULES_BACK_DAYS = 400;
/** How much wider than asked a zone's rules are searched, so that later windows reuse them. */
const SLACK_DAYS = 31;

/** The rules searched so far, by zone; one entry per zone a feed has named. */
const known = new Map<string, ZoneRules>();

/**
 * An IANA zone's offsets over a feed's window, read once from the time-zone database: every change
 * of offset from 400 days before `from` (so that the last change before the window is there) to
 * a few days past `to`, each found to the minute. A feed's local times and its VTIMEZONE both come
 * from these, so they cannot disagree; reading them is a search, not a time-zone lookup per event.
 */
export class ZoneRules {
  private constructor(
    readonly zone: string,
    private readonly start: number,
    private readonly end: number,
    private readonly initial: number,
    private readonly changes: Transition[],
  ) {}

  /**
   * The zone's rules over [from − 400 days, to + 3 days]. The search is kept per zone (a zone's
   * history does not change while the process runs) and made a month wider each way, so the feeds
   * of the coming weeks, whose windows move with the day, take their part of it.
   */
  static of(zone: string, from: Date, to: Date): ZoneRules {
    const start = from.getTime() - RULES_BACK_DAYS * DAY_MS;
    const end = to.getTime() + 3 * DAY_MS;
    let kept = known.get(zone);
    if (!kept || kept.start > start || kept.end < end) {
      kept = ZoneRules.search(zone, start - SLACK_DAYS * DAY_MS, end + SLACK_DAYS * DAY_MS);
      known.set(zone, kept);
    }
    const changes = kept.changes.filter((c) => c.at > start && c.at <= end);
    return new ZoneRules(zone, start, end, kept.offsetAt(new Date(start)), changes);
  }

  private static search(zone: string, start: number, end: number): ZoneRules {
    const offsetAt = (ms: number) => DateTime.fromMillis(ms, { zone }).offset;
    const changes: Transition[] = [];
    let before = offsetAt(start);
    for (let day = start; day < end; day += DAY_MS) {
      const after = offsetAt(day + DAY_MS);
      if (before !== after) {
        let low = day;
        let high = day + DAY_MS;
        while (high - low > 60_000) {
          const middle = low + Math.floor((high - low) / 120_000) * 60_000;
          if (offsetAt(middle) === before) low = middle;
          else high = middle;
        }
        changes.push({ at: high, from: before, to: after });
      }
      before = after;
    }
    return new ZoneRules(zone, start, end, offsetAt(start), changes);
  }

  /** Minutes east of UTC at `instant`. */
  offsetAt(instant: Date): number {
    const ms = instant.getTime();
    if (ms < this.start || ms > this.end) return DateTime.fromMillis(ms, { zone: this.zone }).offset;
    let low = 0;
    let high = this.changes.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.changes[middle].at <= ms) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? this.initial : this.changes[low - 1].to;
  }

  /** A local DATE-TIME value (no zone: the TZID parameter names it): `20260302T090000`. */
  localStamp(instant: Date): string {
    return wallStamp(instant.getTime(), this.offsetAt(instant));
  }

  /**
   * The zone's VTIMEZONE: each change as an observance with its own onset (DAYLIGHT when it moves
   * past the zone's smallest offset, else STANDARD); a zone without changes, one standard observance.
   */
  vtimezone(): string[] {
    const lines = ["BEGIN:VTIMEZONE", `TZID:${this.zone}`];
    if (!this.changes.length) {
      const offset = utcOffset(this.initial);
      return [...lines, "BEGIN:STANDARD", "DTSTART:19700101T000000", `TZOFFSETFROM:${offset}`, `TZOFFSETTO:${offset}`, "END:STANDARD", "END:VTIMEZONE"];
    }
    const standard = Math.min(...this.changes.flatMap((c) => [c.from, c.to]));
    for (const change of this.changes) {
      const kind = change.to > standard ? "DAYLIGHT" : "STANDARD";
      // The onset is the wall time just before the change, read in the offset it changes from.
      lines.push(
        `BEGIN:${kind}`,
        `DTSTART:${wallStamp(change.at, change.from)}`,
        `TZOFFSETFROM:${utcOffset(change.from)}`,
        `TZOFFSETTO:${utcOffset(change.to)}`,
        `END:${kind}`,
      );
    }
    return [...lines, "END:VTIMEZONE"];
  }
}

/** Unfolded content lines joined into the iCalendar object's text: every line folded and ended with CRLF. */
export function calendarText(lines: string[]): string {
  return lines.map((line) => foldLine(line) + CRLF).join("");
}
