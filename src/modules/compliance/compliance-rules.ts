import { exactAmount, exactCents, exactPay, moneyUnits, payCents } from "../../common/money";
import { minutesToHours } from "../../common/shift-minutes";
import { ComplianceFigures, ComplianceRules, RuleId } from "./compliance-presets";
import { localDate, localTime } from "../../common/local-time";
import { workweekOf } from "../../common/weekday";

/**
 * The labor rules as pure functions of planned shifts: no database, no clock of their own. Each
 * answers the violations it finds, with premiums in exact minutes and cents (one rounding each).
 */

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export interface PlannedBreakSpan {
  paid: boolean;
  durationMinutes: number;
  /** null: a break without a fixed time. */
  startsAt: Date | null;
}

/** A shift as it will stand once the drafts are published: a published entry or a draft that adds or changes one. */
export interface PlannedShift {
  /** The entry's or the draft's id. */
  id: string;
  staffId: string;
  startsAt: Date;
  endsAt: Date;
  breaks: PlannedBreakSpan[];
  /** The worker's regular rate for the shift's role, exact (numeric text or number). */
  hourlyWage: string | number;
  /** Whether its violations are reported: it belongs to the checked location and range. */
  checked: boolean;
}

/** A pending change of the published schedule: an entry added, changed or removed. */
export interface ScheduleChange {
  id: string;
  staffId: string;
  /** The published shift before the change; null for an addition. */
  before: { startsAt: Date; endsAt: Date } | null;
  /** The shift after it; null for a removal. */
  after: { startsAt: Date; endsAt: Date } | null;
  hourlyWage: string | number;
}

export interface TimeOffSpan {
  staffId: string;
  startsAt: Date;
  endsAt: Date;
}

export interface Violation {
  ruleId: RuleId;
  severity: "error" | "warning";
  staffId: string;
  entryIds: string[];
  message: string;
  citation: string;
  /** Minutes and cents, exact; the API shows hours and the amount in currency. */
  premium: { minutes: number; cents: number } | null;
}

/** The calendar and the moment a check runs in. */
export interface CheckContext {
  zone: string;
  /** ISO weekday (Monday 1 … Sunday 7) the workweek starts on. */
  weekStart: number;
  now: Date;
}

const minutesBetween = (a: Date, b: Date): number => Math.round((b.getTime() - a.getTime()) / MINUTE_MS);
const hoursText = (minutes: number): string => `${minutesToHours(minutes)} h`;

/** Minutes of work of a shift: its length less its unpaid breaks. */
export function workedMinutes(shift: Pick<PlannedShift, "startsAt" | "endsAt" | "breaks">): number {
  const unpaid = shift.breaks.filter((b) => !b.paid).reduce((sum, b) => sum + b.durationMinutes, 0);
  return Math.max(0, minutesBetween(shift.startsAt, shift.endsAt) - unpaid);
}

function byStaffMember<T extends { staffId: string }>(items: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.staffId);
    if (group) group.push(item);
    else groups.set(item.staffId, [item]);
  }
  return groups;
}

/** Hard limits are errors; a rule off (null figure) finds nothing. */
function violation(
  rules: ComplianceRules,
  ruleId: RuleId,
  severity: Violation["severity"],
  staffId: string,
  shifts: { id: string }[],
  message: string,
  premium: Violation["premium"] = null,
): Violation {
  return { ruleId, severity, staffId, entryIds: shifts.map((s) => s.id), message, citation: rules.citation(ruleId), premium };
}

/**
 * The rest a shift ending `firstEndsAt` leaves before `second` when it is below `minRestHours`:
 * the rest's minutes and the minutes of the second shift worked inside the rest period; null
 * when the rest is long enough.
 */
export function restShortfall(
  firstEndsAt: Date,
  second: { startsAt: Date; endsAt: Date },
  minRestHours: number,
): { restMinutes: number; insideMinutes: number } | null {
  const restMinutes = minutesBetween(firstEndsAt, second.startsAt);
  const shortMinutes = minRestHours * 60 - restMinutes;
  if (shortMinutes <= 0) return null;
  return { restMinutes, insideMinutes: Math.min(shortMinutes, minutesBetween(second.startsAt, second.endsAt)) };
}

/**
 * The premium for `insideMinutes` worked inside the rest period, exact: the flat amount per shift,
 * or those minutes at the rate above regular pay (`restPayRate` − 1); null when the rule has no price.
 */
export function restPremium(
  insideMinutes: number,
  hourlyWage: string | number,
  figures: Pick<ComplianceFigures, "restPayRate" | "restPremiumAmount">,
): { rateAbove: number | null; exact: bigint } | null {
  if (figures.restPremiumAmount !== null) return { rateAbove: null, exact: exactAmount(figures.restPremiumAmount) };
  if (figures.restPayRate === null) return null;
  const rateAbove = (moneyUnits(figures.restPayRate) - moneyUnits(1)) / moneyUnits(1);
  return { rateAbove, exact: exactPay(insideMinutes, hourlyWage, rateAbove) };
}

/**
 * Rest below the minimum between a shift and the worker's next one starting on another calendar
 * day (the laws leave split shifts within one day alone). The premium: the hours of the second
 * shift worked inside the rest period at the rate above regular pay, or the flat amount per shift.
 */
export function restBetweenShifts(shifts: PlannedShift[], rules: ComplianceRules, ctx: CheckContext): Violation[] {
  const { minRestHours } = rules.figures;
  if (minRestHours === null) return [];
  const found: Violation[] = [];
  for (const [staffId, own] of byStaffMember(shifts)) {
    const sorted = [...own].sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
    for (let i = 1; i < sorted.length; i++) {
      const [first, second] = [sorted[i - 1], sorted[i]];
      if (!first.checked && !second.checked) continue;
      if (localDate(first.startsAt, ctx.zone) === localDate(second.startsAt, ctx.zone)) continue;
      const short = restShortfall(first.endsAt, second, minRestHours);
      if (!short) continue;
      const priced = restPremium(short.insideMinutes, second.hourlyWage, rules.figures);
      found.push(
        violation(
          rules,
          "REST_BETWEEN_SHIFTS",
          "warning",
          staffId,
          [first, second],
          `Only ${hoursText(short.restMinutes)} of rest between the shift ending ${localTime(first.endsAt, ctx.zone)} and the one starting ${localTime(second.startsAt, ctx.zone)}; the minimum is ${minRestHours} h`,
          priced && { minutes: short.insideMinutes, cents: exactCents(priced.exact) },
        ),
      );
    }
  }
  return found;
}

/** A shift longer, start to end, than the longest allowed. */
export function shiftLength(shifts: PlannedShift[], rules: ComplianceRules, ctx: CheckContext): Violation[] {
  const { maxShiftHours } = rules.figures;
  if (maxShiftHours === null) return [];
  return shifts
    .filter((s) => s.checked && minutesBetween(s.startsAt, s.endsAt) > maxShiftHours * 60)
    .map((s) =>
      violation(
        rules,
        "MAX_SHIFT_LENGTH",
        "error",
        s.staffId,
        [s],
        `The shift starting ${localTime(s.startsAt, ctx.zone)} lasts ${hoursText(minutesBetween(s.startsAt, s.endsAt))}; the longest allowed is ${maxShiftHours} h`,
      ),
    );
}

/** Hours of work of each worker's period (a day or a workweek, named by `periodOf`) over `cap`. */
function hoursOverCap(
  shifts: PlannedShift[],
  rules: ComplianceRules,
  ruleId: RuleId,
  cap: number | null,
  periodOf: (s: PlannedShift) => string,
  label: string,
): Violation[] {
  if (cap === null) return [];
  const found: Violation[] = [];
  for (const [staffId, own] of byStaffMember(shifts)) {
    const periods = new Map<string, PlannedShift[]>();
    for (const s of own) {
      const period = periodOf(s);
      periods.set(period, [...(periods.get(period) ?? []), s]);
    }
    for (const [period, inPeriod] of [...periods].sort(([a], [b]) => a.localeCompare(b))) {
      if (!inPeriod.some((s) => s.checked)) continue;
      const minutes = inPeriod.reduce((sum, s) => sum + workedMinutes(s), 0);
      if (minutes > cap * 60) {
        const sorted = [...inPeriod].sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
        found.push(
          violation(rules, ruleId, "error", staffId, sorted, `${hoursText(minutes)} of work planned ${label} ${period}; the most allowed is ${cap} h`),
        );
      }
    }
  }
  return found;
}

/** Hours of work planned on one calendar day (the day a shift starts) over the daily cap. */
export function dailyHours(shifts: PlannedShift[], rules: ComplianceRules, ctx: CheckContext): Violation[] {
  return hoursOverCap(shifts, rules, "MAX_DAILY_HOURS", rules.figures.maxDailyHours, (s) => localDate(s.startsAt, ctx.zone), "on");
}

/** Hours of work planned in one workweek over the weekly cap. */
export function weeklyHours(shifts: PlannedShift[], rules: ComplianceRules, ctx: CheckContext): Violation[] {
  return hoursOverCap(
    shifts,
    rules,
    "MAX_WEEKLY_HOURS",
    rules.figures.maxWeeklyHours,
    (s) => workweekOf(localDate(s.startsAt, ctx.zone), ctx.weekStart),
    "in the workweek starting",
  );
}

/**
 * The meal-break deadlines a shift missed, as the hours of the shift they fall at: a shift longer
 * than `mealBreakAfterHours` needs an unpaid break of at least `mealBreakMinutes` that starts no
 * later than the end of that hour, and one longer than `secondMealBreakAfterHours` a second such
 * break by the end of that hour. Only breaks with a start can show their timing.
 */
export function missedMealBreaks(
  shift: { startsAt: Date; endsAt: Date; breaks: PlannedBreakSpan[] },
  figures: Pick<ComplianceFigures, "mealBreakAfterHours" | "mealBreakMinutes" | "secondMealBreakAfterHours">,
): number[] {
  const { mealBreakAfterHours, mealBreakMinutes, secondMealBreakAfterHours } = figures;
  if (mealBreakAfterHours === null) return [];
  const length = minutesBetween(shift.startsAt, shift.endsAt);
  const meals = shift.breaks.filter((b) => !b.paid && b.startsAt !== null && b.durationMinutes >= (mealBreakMinutes ?? 0)).map((b) => b.startsAt!.getTime());
  const deadlines = [mealBreakAfterHours, secondMealBreakAfterHours].filter((h): h is number => h !== null && length > h * 60);
  // The n-th meal break must start by the n-th deadline.
  return deadlines.filter((hours, n) => meals.filter((start) => start <= shift.startsAt.getTime() + hours * HOUR_MS).length <= n);
}

/** Planned meal breaks that miss the rule (missedMealBreaks), one violation per deadline missed. */
export function mealBreaks(shifts: PlannedShift[], rules: ComplianceRules, ctx: CheckContext): Violation[] {
  const { mealBreakAfterHours, mealBreakMinutes } = rules.figures;
  const found: Violation[] = [];
  for (const s of shifts.filter((x) => x.checked)) {
    for (const hours of missedMealBreaks(s, rules.figures)) {
      const by = new Date(s.startsAt.getTime() + hours * HOUR_MS);
      const ordinal = hours === mealBreakAfterHours ? "a meal break" : "a second meal break";
      found.push(
        violation(
          rules,
          "MEAL_BREAK",
          "error",
          s.staffId,
          [s],
          `The shift starting ${localTime(s.startsAt, ctx.zone)} lasts ${hoursText(minutesBetween(s.startsAt, s.endsAt))} and needs ${ordinal} of at least ${mealBreakMinutes ?? 0} unpaid minutes planned to start by ${localTime(by, ctx.zone)}`,
        ),
      );
    }
  }
  return found;
}

/** A shift planned over the worker's approved time off. */
export function overTimeOff(shifts: PlannedShift[], timeOff: TimeOffSpan[], rules: ComplianceRules, ctx: CheckContext): Violation[] {
  const off = byStaffMember(timeOff);
  const found: Violation[] = [];
  for (const s of shifts.filter((x) => x.checked)) {
    const hit = (off.get(s.staffId) ?? []).find((t) => t.startsAt < s.endsAt && t.endsAt > s.startsAt);
    if (hit) {
      found.push(
        violation(
          rules,
          "TIME_OFF",
          "error",
          s.staffId,
          [s],
          `The shift starting ${localTime(s.startsAt, ctx.zone)} falls in approved time off from ${localTime(hit.startsAt, ctx.zone)} to ${localTime(hit.endsAt, ctx.zone)}`,
        ),
      );
    }
  }
  return found;
}

export type ChangeKind = "ADDED" | "MOVED" | "REDUCED";

/** What a change does to the worker's hours: adds a shift, moves or lengthens one, or takes hours away. */
export function changeKind(change: Pick<ScheduleChange, "before" | "after">): { kind: ChangeKind; lostMinutes: number } {
  if (!change.before) return { kind: "ADDED", lostMinutes: 0 };
  const before = minutesBetween(change.before.startsAt, change.before.endsAt);
  const after = change.after ? minutesBetween(change.after.startsAt, change.after.endsAt) : 0;
  return after < before ? { kind: "REDUCED", lostMinutes: before - after } : { kind: "MOVED", lostMinutes: 0 };
}

/**
 * The predictability pay a change owes when made with less notice than the schedule must give:
 * measured from `now` to the earlier of the shift's start before and after the change. Flat
 * amounts (with a late tier) where the law sets them, else hours of regular pay for a change that
 * adds or moves hours and a rate per lost hour for one that takes hours away (a law without a
 * reduction figure pays the change figure for it too).
 */
export function predictabilityPay(
  change: ScheduleChange,
  rules: ComplianceRules,
  now: Date,
): { kind: ChangeKind; noticeMinutes: number; minutes: number; cents: number } | null {
  const f = rules.figures;
  if (f.noticeDays === null) return null;
  const starts = [change.before?.startsAt, change.after?.startsAt].filter((d): d is Date => d !== undefined);
  const noticeMinutes = minutesBetween(now, new Date(Math.min(...starts.map((d) => d.getTime()))));
  if (noticeMinutes >= f.noticeDays * 24 * 60 || noticeMinutes < 0) return null;
  const { kind, lostMinutes } = changeKind(change);
  const late = f.lateNoticeDays !== null && noticeMinutes < f.lateNoticeDays * 24 * 60;
  const reduced = kind === "REDUCED";
  const flat = reduced ? (late ? f.lateReductionPayAmount : f.reductionPayAmount) : late ? f.lateChangePayAmount : f.changePayAmount;
  const changedMinutes = reduced ? lostMinutes : minutesBetween((change.after ?? change.before)!.startsAt, (change.after ?? change.before)!.endsAt);
  if (flat !== null) return { kind, noticeMinutes, minutes: changedMinutes, cents: Math.round(flat * 100) };
  if (reduced && f.reductionPayRate !== null)
    return { kind, noticeMinutes, minutes: lostMinutes, cents: payCents(lostMinutes, change.hourlyWage, f.reductionPayRate) };
  if (f.changePayHours !== null) return { kind, noticeMinutes, minutes: f.changePayHours * 60, cents: payCents(f.changePayHours * 60, change.hourlyWage) };
  return null;
}

const CHANGE_WORDS: Record<ChangeKind, string> = { ADDED: "adds a shift", MOVED: "moves a shift", REDUCED: "takes hours away from a shift" };

/** Pending changes inside the notice window, with the predictability pay each owes. */
export function noticeWindow(changes: ScheduleChange[], rules: ComplianceRules, ctx: CheckContext): Violation[] {
  const found: Violation[] = [];
  for (const change of changes) {
    const pay = predictabilityPay(change, rules, ctx.now);
    if (!pay) continue;
    const shift = (change.before ?? change.after)!;
    found.push(
      violation(
        rules,
        "NOTICE_WINDOW",
        "warning",
        change.staffId,
        [change],
        `A change ${CHANGE_WORDS[pay.kind]} starting ${localTime(shift.startsAt, ctx.zone)} with ${hoursText(pay.noticeMinutes)} of notice; the schedule must be given ${rules.figures.noticeDays} days ahead`,
        { minutes: pay.minutes, cents: pay.cents },
      ),
    );
  }
  return found;
}

/** Every rule over the planned shifts and the pending changes, errors first, then by worker and time. */
export function checkSchedule(
  shifts: PlannedShift[],
  changes: ScheduleChange[],
  timeOff: TimeOffSpan[],
  rules: ComplianceRules,
  ctx: CheckContext,
): Violation[] {
  const all = [
    ...shiftLength(shifts, rules, ctx),
    ...dailyHours(shifts, rules, ctx),
    ...weeklyHours(shifts, rules, ctx),
    ...mealBreaks(shifts, rules, ctx),
    ...overTimeOff(shifts, timeOff, rules, ctx),
    ...restBetweenShifts(shifts, rules, ctx),
    ...noticeWindow(changes, rules, ctx),
  ];
  return all.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1) || a.staffId.localeCompare(b.staffId));
}
