import { ShiftExportRow } from "./shift-export.graphql";
import type { ExportSink } from "./shift-export.service";

/**
 * The CSV columns, in the order CsvRecords writes them. Those holding text people typed (names, other
 * systems' ids) are quoted and guarded against formulas (csvField); the rest are UUIDs, times and
 * numbers written here (CsvRecords).
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

/** CSV records end with CR LF (RFC 4180). */
const CRLF = "\r\n";

/** Texts kept per function before its cache starts afresh. */
const MAX_TEXTS = 10_000;

/**
 * `write` with the texts it wrote kept (bounded), by value: an export writes the same few wages and
 * amounts over and over, and Number#toFixed cost more than the rest of a line.
 */
function keptTexts(write: (value: number) => string): (value: number) => string {
  const texts = new Map<number, string>();
  return (value) => {
    let text = texts.get(value);
    if (text === undefined) {
      if (texts.size >= MAX_TEXTS) texts.clear();
      texts.set(value, (text = write(value)));
    }
    return text;
  };
}

const money = keptTexts((amount) => amount.toFixed(2));
const wage = keptTexts(wageText);

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

/** Bytes a CSV batch starts with room for; it grows as needed and the next batch starts at the last one's size. */
const FIRST_BATCH_BYTES = 64 * 1024;

/**
 * The export's rows as CSV records (CSV_COLUMNS), a batch as one buffer of UTF-8 bytes. Each row is
 * written straight into the batch's bytes: built as text, the partial texts of half a million rows
 * (a few per field) were most of a long export's garbage collection, and the text was then encoded
 * again to be sent. Typed text is written as csvField writes it.
 */
export class CsvRecords implements ExportSink<Buffer> {
  private bytes = Buffer.allocUnsafe(FIRST_BATCH_BYTES);
  private length = 0;

  add(r: Readonly<ShiftExportRow>): void {
    this.text(r.shiftId);
    this.field(r.employee);
    this.field(r.externalEmployeeId);
    this.field(r.payrollId);
    this.field(r.location);
    this.field(r.role);
    this.text(r.date);
    this.text(r.startTime);
    this.text(r.endTime);
    this.number(r.durationMinutes);
    this.number(r.paidBreakMinutes);
    this.number(r.unpaidBreakMinutes);
    this.number(r.payableMinutes);
    this.text(money(r.payableHours));
    this.text(wage(r.hourlyWage));
    this.text(money(r.pay));
    this.number(r.regularMinutes);
    this.number(r.overtimeMinutes);
    this.number(r.doubleTimeMinutes);
    this.number(r.overtimeRate);
    this.text(money(r.overtimePremium));
    this.text(money(r.doubleTimePremium));
    this.number(r.mealPremiumMinutes);
    this.text(money(r.mealPremium));
    this.number(r.restGapMinutes);
    this.text(r.restGapRate === null ? "" : String(r.restGapRate));
    this.text(money(r.restGapPremium));
    this.text(money(r.predictabilityPay));
    this.text(r.kind, CRLF);
  }

  take(): Buffer | undefined {
    if (!this.length) return undefined;
    const batch = this.bytes.subarray(0, this.length);
    // The batch goes to the socket as it is: the next one gets bytes of its own.
    this.bytes = Buffer.allocUnsafe(Math.max(FIRST_BATCH_BYTES, this.length + (this.length >> 2)));
    this.length = 0;
    return batch;
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.bytes.length) return;
    const larger = Buffer.allocUnsafe(Math.max(2 * this.bytes.length, this.length + bytes));
    this.bytes.copy(larger, 0, 0, this.length);
    this.bytes = larger;
  }

  /** Text written as it is, then `end` (a comma, or the line break). */
  private text(text: string, end = ","): void {
    const n = text.length;
    // UTF-8 takes at most three bytes per UTF-16 unit.
    this.room(3 * n + 2);
    const bytes = this.bytes;
    let at = this.length;
    for (let i = 0; i < n; i++) {
      const code = text.charCodeAt(i);
      if (code > 0x7f) {
        // Not ASCII (none of the export's own texts is): the encoder writes it all.
        at = this.length + bytes.write(text, this.length, "utf8");
        break;
      }
      bytes[at++] = code;
    }
    for (let i = 0; i < end.length; i++) bytes[at++] = end.charCodeAt(i);
    this.length = at;
  }

  private number(value: number): void {
    // Whole minutes, mostly: their digits are written without a text.
    if (!(Number.isInteger(value) && value >= 0 && value < 1e9)) return this.text(String(value));
    this.room(11);
    const bytes = this.bytes;
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    let at = this.length + digits;
    for (let rest = value, i = at - 1; i >= this.length; i--, rest = Math.floor(rest / 10)) bytes[i] = 48 + (rest % 10);
    bytes[at++] = 44;
    this.length = at;
  }

  /** Typed text, as csvField writes it. */
  private field(value: string | null): void {
    this.text(csvField(value));
  }
}

export const CSV_HEADER = CSV_COLUMNS.join(",") + CRLF;
