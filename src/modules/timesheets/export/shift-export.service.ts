import { Actor, requirePermission } from "../../../auth/actor";
import { isUuid } from "../../../common/ids";
import { parseDateRange } from "../../../common/time";
import { ServiceDeps } from "../../../common/services";
import { invalidField } from "../../../errors/app-error";
import { timestamptzMs } from "../../../database/timestamp-parser";
import { localTimeAt } from "../../../common/local-time";
import { exactAmount, exactCents, payCents } from "../../../common/money";
import { loadLocationRules, recordedPredictabilityPay, RecordedPredictabilityPay } from "../../compliance";
import { LocationPayRules, payContextStart, ShiftPay, ShiftPayCalculator, StaffState } from "../pay/shift-pay";
import { BreakSpan, endedShiftMinutes, minutesToHours, ShiftMinutes } from "../../../common/shift-minutes";
import { TimesheetSettingsService } from "../settings/timesheet-settings.service";
import { exportedShifts, ExportNames, readExportNames, StaffNames } from "./shift-export.store";
import { tooManyShifts } from "../shifts/shift.store";
import { ExportRowKind, ShiftExportRow } from "./shift-export.graphql";
import { mapBatches } from "./export-batches";
import { UuidIndex } from "./uuid-index";

export interface ExportFilter {
  startDate: string;
  endDate: string;
  locationId?: string;
  employeeId?: string;
}

/** A staff member as the export names them, with their pay so far. */
interface ExportedWorker {
  names: StaffNames;
  pay: StaffState;
}

/** A location as the export names it, with its pay rules. */
interface ExportedLocation {
  id: string;
  name: string;
  timezone: string;
  rules: LocationPayRules;
}

/** A shift as the export reads it, its text split and its worker, location and role looked up. */
interface ExportedShift {
  shiftId: string;
  worker: ExportedWorker;
  location: ExportedLocation;
  role: string;
  /** Local, with its offset. */
  startTime: string;
  /** The local day it starts. */
  day: string;
  end: number;
  hourlyWage: string;
  minutes: ShiftMinutes;
}

/** Writes every field of a shift's row into `row` (reused from shift to shift: see ExportSink). */
function fillExportRow(row: ShiftExportRow, { shiftId, worker, location, role, startTime, day, end, hourlyWage, minutes }: ExportedShift, pay: ShiftPay): void {
  const employee = worker.names;
  row.shiftId = shiftId;
  row.employee = employee.name;
  row.externalEmployeeId = employee.external_employee_id;
  row.payrollId = employee.payroll_id;
  row.location = location.name;
  row.role = role;
  row.date = day;
  row.startTime = startTime;
  row.endTime = localTimeAt(end, location.timezone);
  row.durationMinutes = minutes.duration;
  row.paidBreakMinutes = minutes.totalPaidBreaks;
  row.unpaidBreakMinutes = minutes.totalUnpaidBreaks;
  row.payableMinutes = minutes.payableDuration;
  row.payableHours = minutesToHours(minutes.payableDuration);
  row.hourlyWage = Number(hourlyWage);
  row.pay = payCents(minutes.payableDuration, hourlyWage) / 100;
  row.regularMinutes = pay.regularMinutes;
  row.overtimeMinutes = pay.overtimeMinutes;
  row.doubleTimeMinutes = pay.doubleTimeMinutes;
  row.overtimeRate = pay.overtimeRate;
  row.overtimePremium = exactCents(pay.exact.overtime) / 100;
  row.doubleTimePremium = exactCents(pay.exact.doubleTime) / 100;
  row.mealPremiumMinutes = pay.mealPremiumMinutes;
  row.mealPremium = exactCents(pay.exact.meal) / 100;
  row.restGapMinutes = pay.restGapMinutes;
  row.restGapRate = pay.restGapRate;
  row.restGapPremium = exactCents(pay.exact.restGap) / 100;
  row.predictabilityPay = 0;
  row.kind = ExportRowKind.SHIFT;
}

/**
 * Where the export's rows go, a batch at a time: `add` gets a row that is overwritten by the next
 * one (a long export allocating an object per row spent a quarter of its time collecting them), so
 * it keeps what it needs (a copy, a CSV line); `take` answers the batch so far (undefined if it has
 * none) and starts the next.
 */
export interface ExportSink<B> {
  add(row: Readonly<ShiftExportRow>): void;
  take(): B | undefined;
}

/** Rows as objects (JSON, GraphQL). */
export const rowObjects = (): ExportSink<ShiftExportRow[]> => {
  let rows: ShiftExportRow[] = [];
  return {
    add: (row) => rows.push({ ...row }),
    take: () => {
      if (!rows.length) return undefined;
      const batch = rows;
      rows = [];
      return batch;
    },
  };
};

/**
 * A predictability payment as a row of its own: it belongs to a scheduled shift, not to a worked
 * one (a cancelled shift was never worked). Its times are the scheduled shift's start before the
 * change; it has no minutes and no other pay.
 */
function predictabilityRow(p: RecordedPredictabilityPay, overtimeRate: number): ShiftExportRow {
  const at = localTimeAt(p.shift_start.getTime(), p.timezone);
  return {
    shiftId: p.entry_id,
    employee: p.employee_name,
    externalEmployeeId: p.external_employee_id,
    payrollId: p.payroll_id,
    location: p.location_name,
    role: p.role_name,
    date: p.day,
    startTime: at,
    endTime: at,
    durationMinutes: 0,
    paidBreakMinutes: 0,
    unpaidBreakMinutes: 0,
    payableMinutes: 0,
    payableHours: 0,
    hourlyWage: 0,
    pay: 0,
    regularMinutes: 0,
    overtimeMinutes: 0,
    doubleTimeMinutes: 0,
    overtimeRate,
    overtimePremium: 0,
    doubleTimePremium: 0,
    mealPremiumMinutes: 0,
    mealPremium: 0,
    restGapMinutes: 0,
    restGapRate: null,
    restGapPremium: 0,
    predictabilityPay: exactCents(exactAmount(p.amount)) / 100,
    kind: ExportRowKind.PREDICTABILITY_PAY,
  };
}

/** Local start times ShiftRows keeps the day of before it starts afresh. */
const MAX_DAYS = 10_000;

const NO_BREAKS: readonly BreakSpan[] = Object.freeze([]);

/** The digits of `text` from `from` up to `to` as a whole number (a bigint column's text). */
function wholeNumber(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number(text.slice(from, to));
    value = value * 10 + digit;
  }
  return value;
}

/** Where the fields of an exported shift's text (exportedShifts) begin: four UUIDs, then times and figures up to the next comma. */
const STAFF_AT = 37;
const LOCATION_AT = 74;
const ROLE_AT = 111;
const TIMES_AT = 148;

function parseBreaks(text: string): BreakSpan[] {
  if (!text) return [];
  return text.split(";").map((b) => {
    const [start, end, paid] = b.split(":");
    return [Number(start), end === "" ? null : Number(end), paid === "true"] as const;
  });
}

/**
 * The export's shifts, as read (exportedShifts), turned into rows for `sink`, in time order: those
 * starting on the local days from `readFrom` to `until` are priced, and those before `firstDay`
 * (read for the overtime and rest of the first workweek) or at another location than `locationId`
 * are then left out.
 */
export class ShiftRows<B> {
  // fillExportRow writes every field.
  private readonly row = {} as ShiftExportRow;
  /** Local days by local start time (the same few texts, kept by localTimeAt): the pay rules compare and look up the same day text then. */
  private readonly days = new Map<string, string>();
  /** Each shift's worker, location and role with all the export needs of them, found by the UUIDs in its text. */
  private readonly workers: UuidIndex<ExportedWorker>;
  private readonly locations: UuidIndex<ExportedLocation>;
  private readonly roles: UuidIndex<string>;

  constructor(
    names: ExportNames,
    private readonly calculator: ShiftPayCalculator,
    private readonly range: { readFrom: string; firstDay: string; until: string },
    private readonly locationId: string | undefined,
    private readonly sink: ExportSink<B>,
  ) {
    this.workers = new UuidIndex(names.staff.keys(), (staffId) => ({ names: names.staff.get(staffId)!, pay: calculator.worker(staffId) }));
    this.locations = new UuidIndex(names.locations.keys(), (id) => {
      const { name, timezone } = names.locations.get(id)!;
      return { id, name, timezone, rules: calculator.location(id) };
    });
    this.roles = new UuidIndex(names.roles.keys(), (id) => names.roles.get(id)!);
  }

  /** Reads the shift's fields in place, without splitting its text: a long export spent more on the parts than on the pay. */
  add(shift: string): void {
    const location = this.locations.at(shift, LOCATION_AT);
    const startEnd = shift.indexOf(",", TIMES_AT);
    const endEnd = shift.indexOf(",", startEnd + 1);
    const start = timestamptzMs(shift, TIMES_AT, startEnd);
    const startTime = localTimeAt(start, location.timezone);
    const day = this.dayOf(startTime);
    // The query matches the days in UTC only, with hours either side for any zone (shiftWhere without local days).
    if (day < this.range.readFrom || day > this.range.until) return;
    const end = timestamptzMs(shift, startEnd + 1, endEnd);
    const wageEnd = shift.indexOf(",", endEnd + 1);
    const paidEnd = shift.indexOf(",", wageEnd + 1);
    const unpaidEnd = shift.indexOf(",", paidEnd + 1);
    const hourlyWage = shift.slice(endEnd + 1, wageEnd);
    const minutes = endedShiftMinutes(start, end, wholeNumber(shift, wageEnd + 1, paidEnd), wholeNumber(shift, paidEnd + 1, unpaidEnd));
    const worker = this.workers.at(shift, STAFF_AT);
    // Breaks count only where a meal-break rule does: elsewhere they are not even parsed.
    const shiftBreaks = location.rules.readsBreaks ? parseBreaks(shift.slice(unpaidEnd + 1)) : NO_BREAKS;
    const pay = this.calculator.payAt(worker.pay, location.rules, {
      day,
      startMs: start,
      endMs: end,
      payableMinutes: minutes.payableDuration,
      hourlyWage,
      breaks: shiftBreaks,
    });
    if (day < this.range.firstDay || (this.locationId && location.id !== this.locationId)) return;
    const role = this.roles.at(shift, ROLE_AT);
    fillExportRow(this.row, { shiftId: shift.slice(0, 36), worker, location, role, startTime, day, end, hourlyWage, minutes }, pay);
    this.sink.add(this.row);
  }

  /** A local time begins with its local day. */
  private dayOf(localTime: string): string {
    let day = this.days.get(localTime);
    if (day === undefined) {
      if (this.days.size >= MAX_DAYS) this.days.clear();
      this.days.set(localTime, (day = localTime.slice(0, 10)));
    }
    return day;
  }
}

/**
 * The payroll export: closed, live shifts starting on the local days of the range, oldest first,
 * each with its overtime and premiums (shift-pay.ts), then the predictability pay recorded for
 * scheduled shifts of the range. Shifts from the start of the first workweek are read to count
 * overtime and rest, and not exported.
 */
export class ShiftExportService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly settings: TimesheetSettingsService,
  ) {}

  /** Checks the request at once, then reads the rows batch by batch from a database cursor, each batch as `sink` takes it. */
  batches<B>(actor: Actor, filter: ExportFilter, sink: () => ExportSink<B>): AsyncGenerator<B> {
    requirePermission(actor, "timesheets:read");
    const range = parseDateRange(filter.startDate, filter.endDate);
    for (const field of ["locationId", "employeeId"] as const) {
      if (filter[field] !== undefined && !isUuid(filter[field])) throw invalidField(field, `${field} must be a UUID`);
    }
    return this.read(actor, range, filter.locationId?.toLowerCase(), filter.employeeId, sink());
  }

  private async *read<B>(
    actor: Actor,
    range: { start: string; end: string },
    locationId: string | undefined,
    staffId: string | undefined,
    sink: ExportSink<B>,
  ): AsyncGenerator<B> {
    const organizationId = actor.organizationId;
    const settings = await this.settings.get(actor);
    // Every location's shifts count towards overtime and rest: the location filter applies to the rows.
    const filter = {
      organizationId,
      startDate: payContextStart(range.start, settings.weekStart),
      endDate: range.end,
      staffIds: staffId ? [staffId] : undefined,
    };
    const days = { readFrom: filter.startDate, firstDay: range.start, until: range.end };
    let rowsOf: ShiftRows<B>;
    let predictability: RecordedPredictabilityPay[] = [];
    // The export may lag a few seconds: it runs on a replica when one is healthy.
    const batches = exportedShifts(await this.deps.reads.readerFor(actor), filter, async (query) => {
      const calculator = new ShiftPayCalculator(settings, await loadLocationRules(query, organizationId));
      rowsOf = new ShiftRows(await readExportNames(query, organizationId), calculator, days, locationId, sink);
      predictability = await recordedPredictabilityPay(query, { organizationId, startDate: range.start, endDate: range.end, locationId, staffId });
    });
    yield* mapBatches(batches, (rows) => {
      for (const shift of rows) rowsOf.add(shift);
      return sink.take();
    });
    if (predictability.length) {
      for (const p of predictability) sink.add(predictabilityRow(p, Number(settings.overtimeRate)));
      yield sink.take()!;
    }
  }

  /** Every row at once, for GraphQL (which cannot stream), up to `Config.maxListedShifts`. */
  async rows(actor: Actor, filter: ExportFilter): Promise<ShiftExportRow[]> {
    const all: ShiftExportRow[] = [];
    const limit = this.deps.config.maxListedShifts;
    for await (const batch of this.batches(actor, filter, rowObjects)) {
      all.push(...batch);
      if (all.length > limit) throw tooManyShifts(limit);
    }
    return all;
  }
}
