import { createHash } from "node:crypto";
import { addDays, localDate } from "../../common/time";
import type { DepartureRow, EntryRow, FeedRow, FeedWindow, TimeOffRow } from "./calendar-feed.store";
import { calendarText, dateStamp, escapeText, utcStamp, ZoneRules } from "./icalendar";

/** What a feed shows and how, as iCalendar: pure functions of the rows the store read. */

const DAY_MS = 86_400_000;
/** How far back and ahead a feed reaches, and how long a removal stays in it as cancelled. */
export const FEED_DAYS_BACK = 30;
export const FEED_DAYS_AHEAD = 365;
export const REMOVALS_KEPT_DAYS = 30;

/** The window a feed covers at `now`. */
export function feedWindow(now: Date): FeedWindow {
  return {
    from: new Date(now.getTime() - FEED_DAYS_BACK * DAY_MS),
    to: new Date(now.getTime() + FEED_DAYS_AHEAD * DAY_MS),
    removedSince: new Date(now.getTime() - REMOVALS_KEPT_DAYS * DAY_MS),
  };
}

/** Stable across every change of the record: a calendar program updates the event it already has. */
export const entryUid = (id: string) => `schedule-entry-${id}@workforce`;
export const timeOffUid = (id: string) => `time-off-${id}@workforce`;

interface FeedEvent {
  uid: string;
  sequence: number;
  changedAt: Date;
  cancelled: boolean;
  summary: string;
  location?: string;
  description?: string | null;
  /** Timed, in a zone; or whole days (`end` exclusive). */
  times: { start: Date; end: Date; zone: string } | { startDate: string; endDate: string };
}

function eventLines(event: FeedEvent, zones: Map<string, ZoneRules>): string[] {
  const { times: when } = event;
  const times =
    "zone" in when
      ? [`DTSTART;TZID=${when.zone}:${zones.get(when.zone)!.localStamp(when.start)}`, `DTEND;TZID=${when.zone}:${zones.get(when.zone)!.localStamp(when.end)}`]
      : [`DTSTART;VALUE=DATE:${dateStamp(when.startDate)}`, `DTEND;VALUE=DATE:${dateStamp(when.endDate)}`];
  return [
    "BEGIN:VEVENT",
    `UID:${event.uid}`,
    // Without METHOD, DTSTAMP is when the event was last revised in the store: the same answer for the same data.
    `DTSTAMP:${utcStamp(event.changedAt)}`,
    `LAST-MODIFIED:${utcStamp(event.changedAt)}`,
    `SEQUENCE:${event.sequence}`,
    ...times,
    `SUMMARY:${escapeText(event.summary)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    `STATUS:${event.cancelled ? "CANCELLED" : "CONFIRMED"}`,
    `TRANSP:${event.cancelled ? "TRANSPARENT" : "OPAQUE"}`,
    "END:VEVENT",
  ];
}

function entryEvent(feed: FeedRow, entry: EntryRow): FeedEvent {
  return {
    uid: entryUid(entry.id),
    sequence: entry.revision,
    changedAt: entry.updated_at,
    cancelled: entry.deleted_at !== null,
    summary: feed.staff_id ? `${entry.role_name} at ${entry.location_name}` : `${entry.staff_name}: ${entry.role_name}`,
    location: entry.location_name,
    description: entry.note,
    times: { start: entry.start_time, end: entry.end_time, zone: entry.timezone },
  };
}

function departureEvent(departure: DepartureRow): FeedEvent {
  return {
    uid: entryUid(departure.entry_id),
    sequence: departure.revision,
    changedAt: departure.departed_at,
    cancelled: true,
    summary: `Shift at ${departure.location_name}`,
    location: departure.location_name,
    times: { start: departure.start_time, end: departure.end_time, zone: departure.timezone },
  };
}

function timeOffEvent(feed: FeedRow, request: TimeOffRow): FeedEvent {
  // A whole-day request ends at the start of the day after its last one (or at its last day's end).
  const lastDay = localDate(new Date(request.end_time.getTime() - 1), request.timezone);
  return {
    uid: timeOffUid(request.id),
    sequence: request.revision,
    changedAt: request.updated_at,
    cancelled: request.status === "cancelled",
    summary: feed.staff_id ? "Time off" : `${request.staff_name}: time off`,
    times: request.is_all_day
      ? { startDate: localDate(request.start_time, request.timezone), endDate: addDays(lastDay, 1) }
      : { start: request.start_time, end: request.end_time, zone: request.timezone },
  };
}

/** The feed as an iCalendar object (RFC 5545): its events, each zone they use with its VTIMEZONE. */
export function feedCalendar(feed: FeedRow, rows: { entries: EntryRow[]; departures: DepartureRow[]; timeOff: TimeOffRow[] }, window: FeedWindow): string {
  const events = rows.entries.map((e) => entryEvent(feed, e));
  const shown = new Set(events.map((e) => e.uid));
  // An entry that left and came back is shown as it is now.
  events.push(...rows.departures.map(departureEvent).filter((e) => !shown.has(e.uid)));
  events.push(...rows.timeOff.map((r) => timeOffEvent(feed, r)));
  const names = [...new Set(events.flatMap((e) => ("zone" in e.times ? [e.times.zone] : [])))].sort();
  const zones = new Map(names.map((zone) => [zone, ZoneRules.of(zone, window.from, window.to)]));
  return calendarText([
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Workforce//Calendar feed//EN",
    "CALSCALE:GREGORIAN",
    `X-WR-CALNAME:${escapeText(feed.staff_id ? `Shifts: ${feed.name}` : `Schedule: ${feed.name}`)}`,
    // How often a calendar program should look again (RFC 7986; Outlook's and Apple's older names).
    "REFRESH-INTERVAL;VALUE=DURATION:PT1H",
    "X-PUBLISHED-TTL:PT1H",
    ...[...zones.values()].flatMap((rules) => rules.vtimezone()),
    ...events.flatMap((event) => eventLines(event, zones)),
    "END:VCALENDAR",
  ]);
}

/** A strong validator of the feed's text: the same data answers the same tag. */
export function feedTag(text: string): string {
  return `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"`;
}
