import { DateTime } from "luxon";
import { addDays, daysBetween } from "../../common/time";

export enum PayFrequency {
  WEEKLY = "WEEKLY",
  BIWEEKLY = "BIWEEKLY",
  SEMIMONTHLY = "SEMIMONTHLY",
  MONTHLY = "MONTHLY",
}

export interface PaySchedule {
  frequency: PayFrequency;
  /** The first day of one period: where weekly and biweekly periods are counted from. */
  anchorDate: string;
}

/** A pay period: its first and last local day. */
export interface PeriodDays {
  start: string;
  end: string;
}

const lastDayOfMonth = (date: string) => DateTime.fromISO(date, { zone: "UTC" }).endOf("month").toISODate()!;

/** The period holding `date`: weekly and biweekly from the anchor (before it too), semimonthly 1st–15th and 16th–end, monthly by calendar month. */
export function periodContaining(schedule: PaySchedule, date: string): PeriodDays {
  switch (schedule.frequency) {
    case PayFrequency.WEEKLY:
    case PayFrequency.BIWEEKLY: {
      const length = schedule.frequency === PayFrequency.WEEKLY ? 7 : 14;
      const start = addDays(schedule.anchorDate, Math.floor(daysBetween(schedule.anchorDate, date) / length) * length);
      return { start, end: addDays(start, length - 1) };
    }
    case PayFrequency.SEMIMONTHLY: {
      const month = date.slice(0, 8);
      return Number(date.slice(8)) <= 15 ? { start: `${month}01`, end: `${month}15` } : { start: `${month}16`, end: lastDayOfMonth(date) };
    }
    case PayFrequency.MONTHLY:
      return { start: `${date.slice(0, 8)}01`, end: lastDayOfMonth(date) };
  }
}

/** Every period overlapping [from, to], in order. */
export function periodsBetween(schedule: PaySchedule, from: string, to: string): PeriodDays[] {
  const periods: PeriodDays[] = [];
  for (let day = from; day <= to;) {
    const period = periodContaining(schedule, day);
    periods.push(period);
    day = addDays(period.end, 1);
  }
  return periods;
}
