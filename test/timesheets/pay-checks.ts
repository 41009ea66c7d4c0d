/** Cents of `numerator / denominator` rounded half away from zero, in integers. */
const roundedCents = (numerator: bigint, denominator: bigint) => (2n * numerator + denominator) / (2n * denominator);
/** Money text ("18.3330", "1.5") in ten-thousandths. */
const units = (text: string) => {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole + fraction.padEnd(4, "0"));
};
const money = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`;

/**
 * Checks that every computed figure of an export row follows from the row's own printed columns
 * (docs/timesheets.md gives each formula): minutes × wage (× rate) / 60, rounded once to the cent.
 * A rest gap without a rate is a flat amount, which the row cannot show the origin of: `flatRestGap`.
 */
export function expectRecomputable(row: Record<string, string>, flatRestGap = "0.00"): void {
  const wage = units(row.hourly_wage);
  // minutes × wage units (× rate units) / (60 min × 100 units per cent (× 10^4 per rate unit)).
  const pay = (minutes: string, rate = 10000n) => money(roundedCents(BigInt(minutes) * wage * rate, 6000n * 10000n));
  expect(row.pay).toBe(pay(row.payable_minutes));
  expect(row.payable_hours).toBe((Number(row.payable_minutes) / 60).toFixed(2));
  expect(Number(row.regular_minutes) + Number(row.overtime_minutes) + Number(row.double_time_minutes)).toBe(Number(row.payable_minutes));
  expect(row.overtime_premium).toBe(pay(row.overtime_minutes, units(row.overtime_rate) - 10000n));
  expect(row.double_time_premium).toBe(pay(row.double_time_minutes));
  expect(row.meal_premium).toBe(pay(row.meal_premium_minutes));
  expect(row.rest_gap_premium).toBe(
    row.rest_gap_rate === "" ? (row.rest_gap_minutes === "0" ? "0.00" : flatRestGap) : pay(row.rest_gap_minutes, units(row.rest_gap_rate)),
  );
}
