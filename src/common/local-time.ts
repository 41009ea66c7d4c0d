import { DateTime, Info, Zone } from "luxon";

/**
 * Local times of shifts, exactly as `formatLocal` writes them (`2026-03-02T09:00:00.000-05:00`)
 * but cheap enough for lists and exports of thousands of shifts: luxon asks Intl for the zone's
 * offset at every instant, which cost more than everything else a list does. Offsets only change
 * at a zone's transitions, so they are kept per zone and UTC hour; an hour with a transition in it
 * is read instant by instant. Written times are kept too (bounded), as lists repeat the same few.
 */

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** Years 1000–9999 print the same through Date#toISOString as through luxon; others go to luxon. */
const FIRST_MS = Date.UTC(1000, 0, 2);
const LAST_MS = Date.UTC(9999, 11, 30);
/** Hours kept per zone before its cache starts afresh: about eleven years of hourly offsets. */
const MAX_HOURS_PER_ZONE = 100_000;
/** Written hour prefixes kept, over all zones, before that cache starts afresh. */
const MAX_HOUR_PREFIXES = 100_000;

/** Local times kept, over all zones, before the caches start afresh (a few megabytes). */
const MAX_TEXTS = 50_000;
let textsKept = 0;

interface ZoneOffsets {
  zone: Zone;
  /** Offset in minutes by UTC hour number; NaN for an hour in which the offset changes. */
  byHour: Map<number, number>;
  /** Offset in minutes at the first instant of a UTC hour: an hour ends where the next begins, so each boundary is asked of Intl once. */
  atHourStart: Map<number, number>;
  /** Local times already written, by instant: a list repeats the same few starts and ends many times. */
  texts: Map<number, string>;
}

const zones = new Map<string, ZoneOffsets>();

function offsetsOf(name: string): ZoneOffsets {
  let entry = zones.get(name);
  if (!entry) {
    entry = { zone: Info.normalizeZone(name), byHour: new Map(), atHourStart: new Map(), texts: new Map() };
    zones.set(name, entry);
  }
  return entry;
}

function offsetAtHourStart(entry: ZoneOffsets, hour: number): number {
  let offset = entry.atHourStart.get(hour);
  if (offset === undefined) entry.atHourStart.set(hour, (offset = entry.zone.offset(hour * HOUR_MS)));
  return offset;
}

/** Minutes east of UTC in `zone` at `ms`, as luxon reads it. */
function offsetAt(entry: ZoneOffsets, ms: number): number {
  const hour = Math.floor(ms / HOUR_MS);
  let offset = entry.byHour.get(hour);
  if (offset === undefined) {
    if (entry.byHour.size >= MAX_HOURS_PER_ZONE) {
      entry.byHour.clear();
      entry.atHourStart.clear();
    }
    // The same offset where the hour begins and where the next begins: none changed in between. A
    // change on the hour (most are) makes the hour before it read instant by instant, which is exact too.
    const first = offsetAtHourStart(entry, hour);
    offset = offsetAtHourStart(entry, hour + 1) === first ? first : NaN;
    entry.byHour.set(hour, offset);
  }
  return Number.isNaN(offset) ? entry.zone.offset(ms) : offset;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => pad2(n));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => pad3(n));

/** `YYYY-MM-DDTHH:` of a wall-clock hour (numbered from the epoch), kept: a list repeats a few hours many times. */
const hourPrefixes = new Map<number, string>();
function hourPrefix(hour: number): string {
  let prefix = hourPrefixes.get(hour);
  if (prefix === undefined) {
    prefix = new Date(hour * HOUR_MS).toISOString().slice(0, 14);
    if (hourPrefixes.size >= MAX_HOUR_PREFIXES) hourPrefixes.clear();
    hourPrefixes.set(hour, prefix);
  }
  return prefix;
}

/** `-05:00` of an offset in minutes; luxon truncates fractions of minutes. */
const offsetSuffixes = new Map<number, string>();
function offsetSuffix(offset: number): string {
  let suffix = offsetSuffixes.get(offset);
  if (suffix === undefined) {
    const abs = Math.abs(offset);
    suffix = `${offset < 0 ? "-" : "+"}${pad2(Math.trunc(abs / 60))}:${pad2(Math.trunc(abs % 60))}`;
    offsetSuffixes.set(offset, suffix);
  }
  return suffix;
}

/** Minutes east of UTC in `zone` at `instant`; the same as `utcOffsetMinutes`. */
export function zoneOffsetMinutes(instant: Date, zone: string): number {
  return offsetAt(offsetsOf(zone), instant.getTime());
}

/** The local wall time of `instant` in `zone` with milliseconds and offset; the same as `formatLocal`. */
export function localTime(instant: Date, zone: string): string {
  return localTimeAt(instant.getTime(), zone);
}

/** `localTime` of an instant in epoch milliseconds. */
export function localTimeAt(ms: number, zone: string): string {
  if (!(ms >= FIRST_MS && ms <= LAST_MS)) return formatLocal(new Date(ms), zone);
  const entry = offsetsOf(zone);
  const known = entry.texts.get(ms);
  if (known !== undefined) return known;
  const offset = offsetAt(entry, ms);
  // Wall-clock milliseconds, written from cached pieces rather than through a Date and toISOString.
  // Offsets before standard time (local mean time) have fractions of a minute: a Date truncates them.
  const wall = Math.trunc(ms + offset * MINUTE_MS);
  const hour = Math.floor(wall / HOUR_MS);
  const inHour = wall - hour * HOUR_MS;
  const text =
    hourPrefix(hour) +
    TWO_DIGITS[Math.floor(inHour / MINUTE_MS)] +
    ":" +
    TWO_DIGITS[Math.floor((inHour % MINUTE_MS) / 1000)] +
    "." +
    THREE_DIGITS[inHour % 1000];
  // luxon writes Z for a fixed zero offset (the zone "UTC").
  const written = text + (offset === 0 && entry.zone.isUniversal ? "Z" : offsetSuffix(offset));
  if (++textsKept > MAX_TEXTS) {
    for (const z of zones.values()) z.texts.clear();
    textsKept = 1;
  }
  entry.texts.set(ms, written);
  return written;
}

/** An instant in UTC with milliseconds, the same as `Date#toISOString`, kept like local times. */
export function utcTimeAt(ms: number): string {
  return ms >= FIRST_MS && ms <= LAST_MS ? localTimeAt(ms, "UTC") : new Date(ms).toISOString();
}

/** Local wall time with its offset, with milliseconds, through luxon: `2026-03-02T09:00:00.000-05:00`. */
export function formatLocal(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toISO({ suppressMilliseconds: false, includeOffset: true })!;
}

/** The calendar day (`YYYY-MM-DD`) of `instant` in `zone`. */
export function localDate(instant: Date, zone: string): string {
  const ms = instant.getTime();
  return ms >= FIRST_MS && ms <= LAST_MS ? localTimeAt(ms, zone).slice(0, 10) : DateTime.fromJSDate(instant, { zone }).toISODate()!;
}

/**
 * The instant of wall time `minutes` after the start of local day `date` in `zone`, as luxon
 * resolves it (`DateTime.fromISO(date, { zone }).set({ hour, minute })`): a time a DST change
 * skips moves forward, a time it repeats takes the offset the day began with. Rules expand to
 * thousands of such times for one eligibility check; luxon asked Intl for each.
 */
export function wallClockInstant(date: string, minutes: number, zone: string): Date {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  if (!(midnight >= FIRST_MS && midnight <= LAST_MS)) {
    return DateTime.fromISO(date, { zone })
      .set({ hour: Math.floor(minutes / 60), minute: minutes % 60 })
      .toJSDate();
  }
  const entry = offsetsOf(zone);
  const dayBegan = resolveWallTime(entry, midnight, offsetAt(entry, midnight));
  return new Date(resolveWallTime(entry, midnight + minutes * MINUTE_MS, dayBegan.offset).ms);
}

/** luxon's resolution of a wall time (`wall`, local milliseconds) from a first guess of its offset. */
function resolveWallTime(entry: ZoneOffsets, wall: number, guess: number): { ms: number; offset: number } {
  let ms = wall - guess * MINUTE_MS;
  const second = offsetAt(entry, ms);
  if (second === guess) return { ms, offset: guess };
  ms -= (second - guess) * MINUTE_MS;
  const third = offsetAt(entry, ms);
  if (second === third) return { ms, offset: second };
  // A time the change skips: it moves forward by the change.
  return { ms: wall - Math.min(second, third) * MINUTE_MS, offset: Math.max(second, third) };
}
