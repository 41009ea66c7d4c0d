import { Max, Min, CheckOptions } from "./input-checks";
import { AtMostDecimals } from "./validation";

/**
 * Money is exact until the one rounding of the figure shown. Wages (numeric(14, 4) in the database)
 * and rates are counted here as integers of ten-thousandths, so sums of minutes × wage stay integers.
 */
export const MONEY_DECIMALS = 4;
const UNITS = 10 ** MONEY_DECIMALS;

/** A wage or rate ("18.3330" as the database gives it, or a number) in ten-thousandths. */
export function moneyUnits(value: string | number): number {
  return Math.round(Number(value) * UNITS);
}

/** `numerator / denominator` (safe integers, denominator > 0) rounded half away from zero. */
export function roundedQuotient(numerator: number, denominator: number): number {
  const magnitude = Math.abs(numerator);
  const whole = Math.floor(magnitude / denominator);
  const rounded = 2 * (magnitude - whole * denominator) >= denominator ? whole + 1 : whole;
  return numerator < 0 ? -rounded : rounded;
}

/** The same for sums too large for a safe integer. */
export function roundedBigQuotient(numerator: bigint, denominator: bigint): bigint {
  const magnitude = numerator < 0n ? -numerator : numerator;
  const whole = magnitude / denominator;
  const rounded = 2n * (magnitude - whole * denominator) >= denominator ? whole + 1n : whole;
  return numerator < 0n ? -rounded : rounded;
}

/** Minutes × wage units to cents: a minute is 1/60 hour and a cent 100 units. */
export const MINUTE_UNITS_PER_CENT = 60 * (UNITS / 100);

/** Pay in cents for `minutes` at an hourly wage (times a premium `rate`), rounded once, half away from zero. */
export function payCents(minutes: number, hourlyWage: string | number, rate: string | number = 1): number {
  if (rate === 1) return roundedQuotient(minutes * moneyUnits(hourlyWage), MINUTE_UNITS_PER_CENT);
  return roundedQuotient(minutes * moneyUnits(hourlyWage) * moneyUnits(rate), MINUTE_UNITS_PER_CENT * UNITS);
}

/**
 * Exact money for sums of many figures: minutes × wage × rate in ten-thousandths each (a bigint,
 * as such sums leave the safe integers). One cent is MINUTE_UNITS_PER_CENT × UNITS of it.
 */
const EXACT_PER_CENT = BigInt(MINUTE_UNITS_PER_CENT * UNITS);

/** `minutes` at an hourly wage times `rate`, exact. */
export function exactPay(minutes: number, hourlyWage: string | number, rate: string | number = 1): bigint {
  // Most premiums of most shifts are nothing: no bigint arithmetic for them (the export runs this per shift).
  if (minutes === 0) return 0n;
  return BigInt(minutes) * BigInt(moneyUnits(hourlyWage)) * BigInt(moneyUnits(rate));
}

/** A flat amount of money (at most four decimals), exact. */
export function exactAmount(amount: string | number): bigint {
  return (BigInt(moneyUnits(amount)) * EXACT_PER_CENT) / 100n;
}

/** Exact money to cents, rounded once, half away from zero. */
export function exactCents(exact: bigint): number {
  if (exact === 0n) return 0;
  return Number(roundedBigQuotient(exact, EXACT_PER_CENT));
}

/**
 * An hourly wage: from 0 to `max`, with at most four decimals (the database keeps four and would
 * round a fifth away silently).
 */
export function IsHourlyWage(max: number, options?: CheckOptions): PropertyDecorator {
  return (target, key) => {
    Min(0, options)(target, key);
    Max(max, options)(target, key);
    AtMostDecimals(MONEY_DECIMALS, options)(target, key);
  };
}
