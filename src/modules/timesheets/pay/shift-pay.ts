import { exactPay, moneyUnits } from "../../../common/money";
import { addDays } from "../../../common/time";
import {
  ComplianceFigures,
  ComplianceRules,
  missedMealBreaks,
  OvertimeSplit,
  PlannedBreakSpan,
  restPremium,
  restShortfall,
  splitWorkweek,
  Workday,
} from "../../compliance";
import { BreakSpan } from "../../../common/shift-minutes";
import { Weekday, weekdayNumber, workweekOf } from "../../../common/weekday";
import { TimesheetSettings } from "../settings/timesheet-settings.entity";

/**
 * What payroll owes for each closed shift, by the organization's overtime settings and each
 * location's labor rules: its minutes split into regular, 1.5× (or the settings' rate) and 2×, the
 * meal-period premium and the rest-gap premium. Shared by the reports and the export, which feed
 * every worker's shifts in time order (workers may interleave), from the start of the first
 * workweek so that overtime counts the whole week.
 */

const MINUTE_MS = 60_000;

/** A closed shift as the pay rules read it. */
export interface PayShift extends ShiftTimes {
  staffId: string;
  locationId: string;
}

/** A shift's times and figures, for a worker and a location already looked up (`worker`, `location`). */
export interface ShiftTimes {
  /** The local day it starts (its workday). */
  day: string;
  startMs: number;
  endMs: number;
  payableMinutes: number;
  hourlyWage: string;
  /** Its recorded breaks; only read at locations with a meal-break rule. */
  breaks: readonly BreakSpan[];
}

/** What overtime and the labor rules add to a shift's regular pay: minutes and rates as shown, each amount exact (common/money) until its one rounding. */
export interface ShiftPay {
  regularMinutes: number;
  /** Minutes at `overtimeRate`. */
  overtimeMinutes: number;
  /** Minutes at 2× (the location's profile sets a double-time threshold or the seventh-day rule). */
  doubleTimeMinutes: number;
  overtimeRate: number;
  /** Hours of regular pay owed as the meal-period premium (at most one per workday), in minutes. */
  mealPremiumMinutes: number;
  /** Minutes of the shift worked inside a rest period shorter than the location's minimum. */
  restGapMinutes: number;
  /** The rate above regular pay the rest gap is paid at; null for a flat premium (or none). */
  restGapRate: number | null;
  exact: {
    /** The overtime minutes at the rate above regular (overtimeRate − 1). */
    overtime: bigint;
    /** The double-time minutes at the rate above regular (1). */
    doubleTime: bigint;
    meal: bigint;
    restGap: bigint;
  };
}

/** The overtime figures of a location whose profile sets any; null: the organization's settings apply. */
function profileOvertime(rules: ComplianceRules | undefined): ComplianceFigures | null {
  const f = rules?.figures;
  if (!f || (f.dailyOvertimeHours === null && f.dailyDoubleTimeHours === null && f.weeklyOvertimeHours === null && !f.seventhDayRule)) return null;
  return f;
}

/**
 * The first day whose shifts the pay of shifts from `start` on depends on: the start of its
 * workweek (overtime), and at least the day before (rest since the previous shift).
 */
export function payContextStart(start: string, weekStart: Weekday): string {
  const week = workweekOf(start, weekdayNumber(weekStart));
  return week < start ? week : addDays(start, -1);
}

const rateAbove = (rate: number) => (moneyUnits(rate) - moneyUnits(1)) / moneyUnits(1);

/**
 * A workweek of a worker so far: its first day ("" before any), its workdays' dates and minutes
 * side by side, and its regular minutes. The arrays are emptied and reused from week to week: an
 * object per shift, stored into the long-lived state, was most of the pay rules' cost in a long export.
 */
interface Workweek {
  week: string;
  dayDates: string[];
  dayMinutes: number[];
  weekRegular: number;
}

const newWorkweek = (): Workweek => ({ week: "", dayDates: [], dayMinutes: [], weekRegular: 0 });

/** The days of a workweek as the compliance rules read them. */
const workdays = (week: Workweek): Workday[] => week.dayDates.map((date, i) => ({ date, minutes: week.dayMinutes[i] }));

/**
 * A worker's pay so far in the export or report (`ShiftPayCalculator.worker`); its own workweek is
 * the one under the organization's settings, kept in place as most locations have no profile.
 */
export interface StaffState extends Workweek {
  /** Workweeks under a profile's overtime figures, by the figures' key. */
  profileWeeks: Map<string, Workweek>;
  /** The worker's previous shift: its workday ("" before the first) and end, kept in place rather than as an object per shift. */
  lastDay: string;
  lastEndMs: number;
  /** The last workday a meal premium was owed for (at most one per workday). */
  mealDay: string | null;
}

/** A location's labor rules as the calculator reads them, worked out once per location rather than per shift (`ShiftPayCalculator.location`). */
export interface LocationPayRules {
  rules: ComplianceRules | undefined;
  /** The profile's overtime figures, or null: the settings' overtime applies. */
  figures: ComplianceFigures | null;
  /** The overtime regime's key among a worker's workweeks ("" the settings'). */
  regime: string;
  readsBreaks: boolean;
}

/** A shift's rest gap where none is owed. */
const NO_REST_GAP = Object.freeze({ minutes: 0, rate: null, exact: 0n });

export class ShiftPayCalculator {
  private readonly byStaff = new Map<string, StaffState>();
  private readonly weekStarts = new Map<string, string>();
  private readonly byLocation = new Map<string, LocationPayRules>();
  private readonly weekStart: number;
  private readonly settingsRate: number;
  private readonly settingsRateAbove: number;
  private readonly dailyLimit: number | null;
  private readonly weeklyLimit: number;

  constructor(
    settings: Pick<TimesheetSettings, "weeklyOvertimeHours" | "dailyOvertimeHours" | "overtimeRate" | "weekStart">,
    private readonly rules: Map<string, ComplianceRules>,
  ) {
    this.weekStart = weekdayNumber(settings.weekStart);
    this.settingsRate = Number(settings.overtimeRate);
    this.settingsRateAbove = rateAbove(this.settingsRate);
    this.dailyLimit = settings.dailyOvertimeHours === null ? null : Number(settings.dailyOvertimeHours) * 60;
    this.weeklyLimit = Number(settings.weeklyOvertimeHours) * 60;
  }

  /** A location's rules, for `payAt`: a caller that prices many shifts can look each location and worker up once, not at every shift. */
  location(locationId: string): LocationPayRules {
    let at = this.byLocation.get(locationId);
    if (!at) {
      const rules = this.rules.get(locationId);
      const figures = profileOvertime(rules);
      const regime = figures
        ? JSON.stringify([figures.dailyOvertimeHours, figures.dailyDoubleTimeHours, figures.weeklyOvertimeHours, figures.seventhDayRule])
        : "";
      this.byLocation.set(locationId, (at = { rules, figures, regime, readsBreaks: (rules?.figures.mealPremiumHours ?? null) !== null }));
    }
    return at;
  }

  private weekOf(day: string): string {
    let week = this.weekStarts.get(day);
    if (week === undefined) this.weekStarts.set(day, (week = workweekOf(day, this.weekStart)));
    return week;
  }

  /** A worker's state, for `payAt`. */
  worker(staffId: string): StaffState {
    let state = this.byStaff.get(staffId);
    // Written out rather than spread from newWorkweek(): the spread object made a long export a fifth slower.
    if (!state)
      this.byStaff.set(
        staffId,
        (state = { week: "", dayDates: [], dayMinutes: [], weekRegular: 0, profileWeeks: new Map(), lastDay: "", lastEndMs: 0, mealDay: null }),
      );
    return state;
  }

  /** The next shift of its worker (in time order). */
  pay(shift: PayShift): ShiftPay {
    return this.payAt(this.worker(shift.staffId), this.location(shift.locationId), shift);
  }

  /** `pay` of the next shift of `state`'s worker at `location`. */
  payAt(state: StaffState, location: LocationPayRules, shift: ShiftTimes): ShiftPay {
    const { rules, figures, regime } = location;
    const split = figures ? this.profileSplit(state, shift, figures, regime) : this.settingsSplit(state, shift);
    const overtimeRate = figures ? 1.5 : this.settingsRate;
    const wage = shift.hourlyWage;

    const restGap = this.restGap(state, shift, rules);
    state.lastDay = shift.day;
    state.lastEndMs = shift.endMs;
    const mealPremiumMinutes = this.mealPremium(state, shift, rules);

    // Fields named one by one: spreading `split` here made this the export's slowest step.
    return {
      regularMinutes: split.regularMinutes,
      overtimeMinutes: split.overtimeMinutes,
      doubleTimeMinutes: split.doubleTimeMinutes,
      overtimeRate,
      mealPremiumMinutes,
      restGapMinutes: restGap.minutes,
      restGapRate: restGap.rate,
      exact: {
        overtime: exactPay(split.overtimeMinutes, wage, figures ? 0.5 : this.settingsRateAbove),
        doubleTime: exactPay(split.doubleTimeMinutes, wage),
        meal: exactPay(mealPremiumMinutes, wage),
        restGap: restGap.exact,
      },
    };
  }

  /** The worker's workweek holding `day` under the settings (`regime` ""), or under a profile's figures. */
  private weekState(state: StaffState, regime: string, day: string): Workweek {
    const week = this.weekOf(day);
    let current = regime === "" ? state : state.profileWeeks.get(regime);
    if (!current) state.profileWeeks.set(regime, (current = newWorkweek()));
    if (current.week !== week) {
      current.week = week;
      current.dayDates.length = 0;
      current.dayMinutes.length = 0;
      current.weekRegular = 0;
    }
    return current;
  }

  /**
   * The profile's overtime (California Labor Code §510 under US_CA, src/modules/compliance/overtime.ts):
   * the shift's part is what it adds to its workweek's split, so no minute is paid twice.
   */
  private profileSplit(state: StaffState, shift: ShiftTimes, figures: ComplianceFigures, regime: string): OvertimeSplit {
    const week = this.weekState(state, regime, shift.day);
    const before = splitWorkweek(workdays(week), figures).total;
    addMinutes(week, shift.day, shift.payableMinutes);
    const after = splitWorkweek(workdays(week), figures).total;
    return {
      regularMinutes: after.regularMinutes - before.regularMinutes,
      overtimeMinutes: after.overtimeMinutes - before.overtimeMinutes,
      doubleTimeMinutes: after.doubleTimeMinutes - before.doubleTimeMinutes,
    };
  }

  /**
   * The organization's settings: minutes beyond the daily threshold (if any) are overtime, then
   * regular minutes beyond the weekly threshold are.
   */
  private settingsSplit(state: StaffState, shift: ShiftTimes): OvertimeSplit {
    const week = this.weekState(state, "", shift.day);
    const payable = shift.payableMinutes;
    const before = addMinutes(week, shift.day, payable);
    const daily = this.dailyLimit === null ? 0 : clamp(before + payable - this.dailyLimit, 0, payable);
    const rest = payable - daily;
    const weekly = clamp(week.weekRegular + rest - this.weeklyLimit, 0, rest);
    week.weekRegular += rest - weekly;
    return { regularMinutes: rest - weekly, overtimeMinutes: daily + weekly, doubleTimeMinutes: 0 };
  }

  /** Rest below the location's minimum before this shift, after the worker's previous one on another day, priced by its profile. */
  private restGap(state: StaffState, shift: ShiftTimes, rules: ComplianceRules | undefined): { minutes: number; rate: number | null; exact: bigint } {
    const minRestHours = rules?.figures.minRestHours ?? null;
    if (minRestHours === null || state.lastDay === "" || state.lastDay === shift.day) return NO_REST_GAP;
    const short = restShortfall(new Date(state.lastEndMs), { startsAt: new Date(shift.startMs), endsAt: new Date(shift.endMs) }, minRestHours);
    const priced = short && restPremium(short.insideMinutes, shift.hourlyWage, rules!.figures);
    return priced ? { minutes: short.insideMinutes, rate: priced.rateAbove, exact: priced.exact } : NO_REST_GAP;
  }

  /** The meal-period premium's minutes when the shift's recorded breaks missed the rule and its workday owes none yet. */
  private mealPremium(state: StaffState, shift: ShiftTimes, rules: ComplianceRules | undefined): number {
    const premiumHours = rules?.figures.mealPremiumHours ?? null;
    if (premiumHours === null || state.mealDay === shift.day) return 0;
    const breaks: PlannedBreakSpan[] = shift.breaks.map(([start, end, paid]) => {
      const from = Math.max(start, shift.startMs);
      const to = Math.min(end ?? shift.endMs, shift.endMs);
      return { paid, durationMinutes: Math.max(0, Math.floor((to - from) / MINUTE_MS)), startsAt: new Date(from) };
    });
    if (!missedMealBreaks({ startsAt: new Date(shift.startMs), endsAt: new Date(shift.endMs), breaks }, rules!.figures).length) return 0;
    state.mealDay = shift.day;
    return Math.round(premiumHours * 60);
  }
}

/**
 * Adds a shift's minutes to its workday among a workweek's days, answering the workday's minutes
 * before. A worker's shifts come in time order, so their workday is nearly always the last one.
 */
function addMinutes(week: Workweek, day: string, minutes: number): number {
  const dates = week.dayDates;
  for (let i = dates.length - 1; i >= 0; i--) {
    if (dates[i] === day) {
      const before = week.dayMinutes[i];
      week.dayMinutes[i] = before + minutes;
      return before;
    }
  }
  dates.push(day);
  week.dayMinutes.push(minutes);
  return 0;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
