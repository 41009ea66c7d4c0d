import { localDate, wallClockInstant } from "../../../common/local-time";
import { addDays } from "../../../common/time";
import { isoWeekdayOf } from "../../../common/weekday";
import { invalidField } from "../../../errors/app-error";

/** What a rule says: never scheduled there, or a wish the generator weighs. */
export type AvailabilityKind = "UNAVAILABLE" | "PREFER_ON" | "PREFER_OFF";
export const AVAILABILITY_KINDS: AvailabilityKind[] = ["UNAVAILABLE", "PREFER_ON", "PREFER_OFF"];

export type AvailabilityStatus = "PENDING" | "APPROVED" | "DECLINED";

export const WEEKDAYS = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The parts of a rule that say when it applies; minutes are local wall time after midnight. */
export interface RuleTimes {
  date: string | null;
  weekdays: Weekday[] | null;
  startMinute: number | null;
  endMinute: number | null;
  effectiveFrom: string | null;
  effectiveUntil: string | null;
}

/** A rule as the expansion needs it. */
export interface RuleShape extends RuleTimes {
  id: string;
  staffId: string;
  kind: AvailabilityKind;
  weight: number;
  templateId: string | null;
}

/**
 * One stretch of time a staff member is unavailable or states a preference for, as instants:
 * a rule on one local day, or approved time off. Plain data, for eligibility and the generator.
 */
export interface AvailabilityWindow {
  staffId: string;
  kind: AvailabilityKind;
  /** `RULE` or approved `TIME_OFF` (always UNAVAILABLE). */
  source: "RULE" | "TIME_OFF";
  /** The rule, or the time-off request. */
  sourceId: string;
  /** The local day the window starts on. */
  date: string;
  start: Date;
  end: Date;
  /** The whole local day. */
  wholeDay: boolean;
  weight: number;
  templateId: string | null;
}

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** `HH:MM` (24 h) as minutes after midnight; anything else is a 400 naming the field. */
export function parseWallTime(value: string, field: string): number {
  const match = HH_MM.exec(value);
  if (!match) throw invalidField(field, `${field} must be a local time HH:MM (24 h), such as 09:30`);
  return Number(match[1]) * 60 + Number(match[2]);
}

export function formatWallTime(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** The weekday of a calendar day. */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[isoWeekdayOf(date) - 1];
}

/** Whether the rule applies on local day `date` (a one-day rule on its day; a weekly one on its weekdays inside its effective range). */
export function appliesOn(rule: RuleTimes, date: string): boolean {
  if (rule.date !== null) return rule.date === date;
  if (rule.effectiveFrom !== null && date < rule.effectiveFrom) return false;
  if (rule.effectiveUntil !== null && date > rule.effectiveUntil) return false;
  return rule.weekdays!.includes(weekdayOf(date));
}

/** The instants the rule covers on local day `date`: the whole day, or its window (into the next day when it ends at or before it starts). */
export function windowOn(rule: RuleTimes, date: string, zone: string): { start: Date; end: Date; wholeDay: boolean } {
  if (rule.startMinute === null || rule.endMinute === null) {
    return { start: wallClockInstant(date, 0, zone), end: wallClockInstant(addDays(date, 1), 0, zone), wholeDay: true };
  }
  const endDay = rule.endMinute <= rule.startMinute ? addDays(date, 1) : date;
  return { start: wallClockInstant(date, rule.startMinute, zone), end: wallClockInstant(endDay, rule.endMinute, zone), wholeDay: false };
}

/**
 * The windows of `rules` that overlap [from, until), each rule read on the local days of `zone`.
 * The day before `from` counts too: its window may run past midnight into the range.
 */
export function expandRules(rules: RuleShape[], from: Date, until: Date, zone: string): AvailabilityWindow[] {
  const first = addDays(localDate(from, zone), -1);
  const last = localDate(until, zone);
  const windows: AvailabilityWindow[] = [];
  for (let date = first; date <= last; date = addDays(date, 1)) {
    for (const rule of rules) {
      if (!appliesOn(rule, date)) continue;
      const { start, end, wholeDay } = windowOn(rule, date, zone);
      if (end <= from || start >= until) continue;
      windows.push({
        staffId: rule.staffId,
        kind: rule.kind,
        source: "RULE",
        sourceId: rule.id,
        date,
        start,
        end,
        wholeDay,
        weight: rule.weight,
        templateId: rule.templateId,
      });
    }
  }
  return windows;
}

/**
 * Whether a window bears on a shift from `start` to `end` (with template `templateId`): an
 * UNAVAILABLE or PREFER_OFF window when their times overlap; a PREFER_ON window when the shift lies
 * inside it, or has its template where it names one.
 */
export function matchesShift(window: AvailabilityWindow, start: Date, end: Date, templateId: string | null = null): boolean {
  if (window.kind === "PREFER_ON") {
    if (window.templateId !== null) return window.templateId === templateId && start < window.end && end > window.start;
    return start >= window.start && end <= window.end;
  }
  if (window.templateId !== null && window.templateId !== templateId) return false;
  return start < window.end && end > window.start;
}
