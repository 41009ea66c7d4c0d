/**
 * A rostering problem as plain data: days of a range, shift templates, people with the shifts each
 * may work and their limits, coverage per day and template. Indexes, not ids: the search runs on
 * arrays, and the caller maps them back. No database, no clock: what the generation service and
 * the benchmark both hand to the search.
 */
export interface RosterProblem {
  days: number;
  /** ISO weekday of day 0 (1 = Monday … 7 = Sunday): a weekend is a Saturday and the Sunday after it. */
  firstWeekday: number;
  /** ISO weekday a workweek starts on, for weekly limits (Monday by default). */
  workweekStart?: number;
  templates: RosterTemplate[];
  staff: RosterPerson[];
  cover: CoverNeed[];
}

export interface RosterTemplate {
  key: string;
  minutes: number;
  /** Templates (indexes) that may not be worked the day after this one. */
  cannotBeFollowedBy: number[];
}

export interface CoverNeed {
  day: number;
  template: number;
  count: number;
  underWeight: number;
  overWeight: number;
}

/** Limits over the whole range; each absent one does not apply. */
export interface RosterLimits {
  minMinutes?: number;
  maxMinutes?: number;
  /** Per template index: at most this many of it (0: never). */
  maxShifts?: (number | null)[];
  maxConsecutiveShifts?: number;
  minConsecutiveShifts?: number;
  minConsecutiveDaysOff?: number;
  maxWeekends?: number;
  /** At most this many minutes in each calendar week (Monday to Sunday) of the range. */
  maxWeeklyMinutes?: number;
}

export interface RosterPerson {
  key: string;
  /** day × templates + template: shifts the person may not work (role, unavailability, time off, labor rules). */
  blocked: number[];
  /** Days already planned and kept as they are (published entries): the template worked, or -1 for a shift of no template. */
  fixed: { day: number; template: number; minutes?: number }[];
  limits: RosterLimits;
  /** Soft: each missed `preferOn` and each met `preferOff` costs its weight; `templates` null means any shift that day. */
  preferOn: Preference[];
  preferOff: Preference[];
  /** Objective cost of working each template once (labor cost × the cost weight); absent: free. */
  shiftCost?: number[];
  /** Premiums owed (× the cost weight) for working day × templates + template: predictability pay, short rest beside a kept shift. */
  premiumCost?: number[];
  /** Premiums owed (× the cost weight) for working template × templates + template the day after the first: short rest. */
  followCost?: number[];
}

export interface Preference {
  day: number;
  templates: number[] | null;
  weight: number;
}

/** Value of a day in a roster: the template worked, OFF, or BUSY (a fixed shift of no template). */
export const OFF = -1;
export const BUSY = -2;

/** A roster: per person, per day, the template worked or OFF/BUSY. */
export type Roster = Int16Array[];

export interface ObjectiveParts {
  coverUnder: number;
  coverOver: number;
  preferenceOn: number;
  preferenceOff: number;
  cost: number;
  premiums: number;
}

/** A hard rule a roster breaks: which person, which rule, where. */
export interface HardViolation {
  staff: number;
  rule: HardRule;
  day?: number;
  detail: string;
}

export type HardRule =
  | "BLOCKED"
  | "CANNOT_BE_FOLLOWED_BY"
  | "MAX_SHIFTS"
  | "MIN_MINUTES"
  | "MAX_MINUTES"
  | "MAX_WEEKLY_MINUTES"
  | "MAX_CONSECUTIVE_SHIFTS"
  | "MIN_CONSECUTIVE_SHIFTS"
  | "MIN_CONSECUTIVE_DAYS_OFF"
  | "MAX_WEEKENDS";
