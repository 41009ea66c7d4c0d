import { ShiftExportRow } from "./shift-export.graphql";

/**
 * The CSV columns, in the order of csvLine's fields. Those holding text people typed (names, other
 * systems' ids) are quoted and guarded against formulas (csvField); the rest are UUIDs, times and
 * numbers written here.
 */
const CSV_COLUMNS = [
  "shift_id",
  "employee",
  "external_employee_id",
  "payroll_id",
  "location",
  "role",
  "date",
  "start_time",
  "end_time",
  "duration_minutes",
  "paid_break_minutes",
  "unpaid_break_minutes",
  "payable_minutes",
  "payable_hours",
  "hourly_wage",
  "pay",
  "regular_minutes",
  "overtime_minutes",
  "double_time_minutes",
  "overtime_rate",
  "overtime_premium",
  "double_time_premium",
  "meal_premium_minutes",
  "meal_premium",
  "rest_gap_minutes",
  "rest_gap_rate",
  "rest_gap_premium",
  "predictability_pay",
  "kind",
];

/**
 * A wage as stored (at most four decimals, which a number's shortest text keeps exactly), with at
 * least two decimals as money is written: 20 → "20.00", 18.333 → "18.333".
 */
function wageText(wage: number): string {
  const text = String(wage);
  const dot = text.indexOf(".");
  if (dot < 0) return `${text}.00`;
  return text.length - dot === 2 ? `${text}0` : text;
}

/** Text a CSV field cannot carry as it is: a formula's first character, a quote, comma or line break. */
const NEEDS_CARE = /^[=+\-@\t\r]|[",\r\n]/;

/**
 * One CSV field of typed text (RFC 4180 quoting). Text that a spreadsheet would run as a formula
 * gets a leading apostrophe, so an employee named "=HYPERLINK(…)" stays text.
 */
export function csvField(value: string | null): string {
  if (value === null) return "";
  // One test for the common case of plain text, as this runs for every typed field of every exported shift.
  if (!NEEDS_CARE.test(value)) return value;
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * One CSV record (CSV_COLUMNS), written as one template: it runs for every exported shift, and a
 * loop over a function per column cost more than the pay rules.
 */
export function csvLine(r: ShiftExportRow): string {
  return (
    `${r.shiftId},${csvField(r.employee)},${csvField(r.externalEmployeeId)},${csvField(r.payrollId)},${csvField(r.location)},${csvField(r.role)},` +
    `${r.date},${r.startTime},${r.endTime},${r.durationMinutes},${r.paidBreakMinutes},${r.unpaidBreakMinutes},${r.payableMinutes},` +
    `${r.payableHours.toFixed(2)},${wageText(r.hourlyWage)},${r.pay.toFixed(2)},${r.regularMinutes},${r.overtimeMinutes},${r.doubleTimeMinutes},` +
    `${r.overtimeRate},${r.overtimePremium.toFixed(2)},${r.doubleTimePremium.toFixed(2)},${r.mealPremiumMinutes},${r.mealPremium.toFixed(2)},` +
    `${r.restGapMinutes},${r.restGapRate === null ? "" : r.restGapRate},${r.restGapPremium.toFixed(2)},${r.predictabilityPay.toFixed(2)},${r.kind}\r\n`
  );
}
export const CSV_HEADER = CSV_COLUMNS.join(",") + "\r\n";
