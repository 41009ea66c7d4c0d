import { DateTime } from "luxon";
import { ACCRUAL_DATE, FixedAmountSettings, WEEKDAYS } from "../policies/policy.entity";
import { exactHours } from "../requests/request-hours";

/** One fixed-amount accrual that falls due: a yearly grant or one period's share. */
export interface FixedAccrual {
  kind: "grant" | "accrual";
  /** Unique per worker policy and kind: the year of a grant, the date of a period. */
  periodKey: string;
  date: string;
  hours: number;
}

const PERIODS_PER_YEAR: Record<string, number> = { EveryOneWeek: 52, EveryTwoWeeks: 26, EveryMonth: 12 };

const day = (iso: string) => DateTime.fromISO(iso, { zone: "UTC" });

/** Day `accrualDate` (`1st` … `31st`) of a month, or its last day when the month is shorter. */
function dayOfMonth(year: number, month: number, accrualDate: string | null | undefined): string {
  const wanted = Number(ACCRUAL_DATE.exec(accrualDate ?? "1st")?.[1] ?? 1);
  const first = DateTime.fromObject({ year, month, day: 1 }, { zone: "UTC" });
  return first.set({ day: Math.min(wanted, first.daysInMonth!) }).toISODate()!;
}

/**
 * The k-th of n equal shares of a year's hours, so that the shares of a year add up to exactly the
 * yearly amount whatever the rounding (period k gets round(yearly·k/n) − round(yearly·(k−1)/n)).
 */
function share(yearly: number, k: number, n: number): number {
  return exactHours(exactHours((yearly * k) / n) - exactHours((yearly * (k - 1)) / n));
}

/**
 * The fixed-amount accruals due on days from `from` to `until` (inclusive, `YYYY-MM-DD`):
 * AllAtOnce grants the year's hours on `accrualDate` of January; Periodic spreads them over the
 * year's weeks (on `accrualDay`), fortnights (from the first `accrualDay` of the year) or months
 * (on `accrualDate`, the last day in shorter months).
 */
export function fixedAccrualsDue(settings: FixedAmountSettings, fullDayHours: number, from: string, until: string): FixedAccrual[] {
  const yearly = settings.hours ?? (settings.daysEarned != null ? settings.daysEarned * fullDayHours : 0);
  if (!(yearly > 0) || until < from) return [];
  const due: FixedAccrual[] = [];
  const first = day(from);
  const last = day(until);
  if (settings.accrualCycle !== "Periodic") {
    for (let year = first.year; year <= last.year; year++) {
      const date = dayOfMonth(year, 1, settings.accrualDate);
      if (date >= from && date <= until) due.push({ kind: "grant", periodKey: String(year), date, hours: yearly });
    }
    return due;
  }
  const frequency = settings.accrualFrequency ?? "EveryMonth";
  const perYear = PERIODS_PER_YEAR[frequency];
  if (frequency === "EveryMonth") {
    for (let month = first.startOf("month"); month <= last; month = month.plus({ months: 1 })) {
      const date = dayOfMonth(month.year, month.month, settings.accrualDate);
      if (date >= from && date <= until) due.push({ kind: "accrual", periodKey: date, date, hours: share(yearly, month.month, perYear) });
    }
    return due;
  }
  const weekday = WEEKDAYS.indexOf((settings.accrualDay ?? "Monday") as (typeof WEEKDAYS)[number]) + 1;
  const step = frequency === "EveryTwoWeeks" ? 14 : 7;
  for (let year = first.year; year <= last.year; year++) {
    const jan1 = DateTime.fromObject({ year, month: 1, day: 1 }, { zone: "UTC" });
    const firstOfYear = jan1.plus({ days: (weekday - jan1.weekday + 7) % 7 });
    for (let d = firstOfYear, k = 1; d.year === year; d = d.plus({ days: step }), k++) {
      const date = d.toISODate()!;
      if (date >= from && date <= until) due.push({ kind: "accrual", periodKey: date, date, hours: share(yearly, k, perYear) });
    }
  }
  return due;
}
