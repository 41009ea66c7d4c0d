import { ComplianceFigures } from "./compliance-presets";

/**
 * Overtime as the profile's figures set it (California Labor Code §510 under US_CA): each minute
 * of a workweek is paid once, at the highest rate that applies to it. Pure: the pay rules of the
 * reports and the export (timesheets/pay/shift-pay.ts) feed it one worker's workweek at a time.
 */

/** Minutes of one worker's workday (the payable minutes of the shifts that start on it). */
export interface Workday {
  date: string;
  minutes: number;
}

export interface OvertimeSplit {
  regularMinutes: number;
  /** Minutes at 1.5×. */
  overtimeMinutes: number;
  /** Minutes at 2×. */
  doubleTimeMinutes: number;
}

type OvertimeFigures = Pick<ComplianceFigures, "dailyOvertimeHours" | "dailyDoubleTimeHours" | "weeklyOvertimeHours" | "seventhDayRule">;

const ZERO: OvertimeSplit = { regularMinutes: 0, overtimeMinutes: 0, doubleTimeMinutes: 0 };

function add(a: OvertimeSplit, b: OvertimeSplit): OvertimeSplit {
  return {
    regularMinutes: a.regularMinutes + b.regularMinutes,
    overtimeMinutes: a.overtimeMinutes + b.overtimeMinutes,
    doubleTimeMinutes: a.doubleTimeMinutes + b.doubleTimeMinutes,
  };
}

/**
 * One day: up to the daily threshold regular, to the double-time threshold at 1.5×, beyond at 2×;
 * on the seventh consecutive workday of the workweek (every day of it worked) the first
 * threshold's hours at 1.5× and the rest at 2×.
 */
function splitDay(minutes: number, f: OvertimeFigures, seventhDay: boolean): OvertimeSplit {
  const daily = f.dailyOvertimeHours === null ? Infinity : f.dailyOvertimeHours * 60;
  const double = f.dailyDoubleTimeHours === null ? Infinity : f.dailyDoubleTimeHours * 60;
  if (seventhDay) {
    const atOneAndHalf = Math.min(minutes, daily);
    return { regularMinutes: 0, overtimeMinutes: atOneAndHalf, doubleTimeMinutes: minutes - atOneAndHalf };
  }
  const regular = Math.min(minutes, daily);
  const doubleTime = Math.max(0, minutes - Math.max(double, daily));
  return { regularMinutes: regular, overtimeMinutes: minutes - regular - doubleTime, doubleTimeMinutes: doubleTime };
}

/**
 * The split of one workweek (its days in order, at most seven). Daily rules first; then regular
 * minutes beyond the weekly threshold, counted in day order, become 1.5× (minutes already paid
 * as daily overtime do not count towards the weekly threshold, so none is paid twice).
 */
export function splitWorkweek(days: Workday[], figures: OvertimeFigures): { days: OvertimeSplit[]; total: OvertimeSplit } {
  const ordered = [...days].sort((a, b) => a.date.localeCompare(b.date));
  if (ordered.length > 7 || new Set(ordered.map((d) => d.date)).size !== ordered.length) throw new Error("A workweek has at most seven distinct days");
  const everyDayWorked = figures.seventhDayRule && ordered.length === 7 && ordered.every((d) => d.minutes > 0);
  const weekly = figures.weeklyOvertimeHours === null ? Infinity : figures.weeklyOvertimeHours * 60;
  let regularSoFar = 0;
  const split = ordered.map((day, i) => {
    const s = splitDay(day.minutes, figures, everyDayWorked && i === 6);
    const regular = Math.max(0, Math.min(s.regularMinutes, weekly - regularSoFar));
    regularSoFar += s.regularMinutes;
    return { regularMinutes: regular, overtimeMinutes: s.overtimeMinutes + s.regularMinutes - regular, doubleTimeMinutes: s.doubleTimeMinutes };
  });
  return { days: split, total: split.reduce(add, ZERO) };
}
