import { EntityManager } from "typeorm";
import { Actor, ownRecordsOnly, requireSelfOr } from "../../../auth/actor";
import { filterId, isUuid, requireUuid } from "../../../common/ids";
import { requireInOrganization } from "../../../common/tenant-records";
import { formatLocal, localDate, parseDate, parseDateRange, parseTimestamp } from "../../../common/time";
import { rejectNulls } from "../../../common/validation";
import { ServiceDeps } from "../../../common/services";
import { AppError, conflict, invalidField, notFound, unknownReference } from "../../../errors/app-error";
import { describeConstraint } from "../../../errors/database-errors";
import { groupByKeys } from "../../../loaders/loaders";
import type { BreakType } from "../../breaks";
import { CreateShiftInput, ShiftBreakInput, ShiftListArgs, UpdateShiftInput } from "./shift.graphql";
import {
  closeRunningBreak,
  deleteBreaks,
  endBreak,
  endShift,
  guardDays,
  insertBreaks,
  insertShift,
  lockedAmong,
  NewBreak,
  presentShift,
  presentShifts,
  selectBreakTypes,
  selectListedShifts,
  selectLocation,
  selectLockedDays,
  selectOpenShift,
  selectOverlappingShift,
  selectPlaceOfWork,
  selectShift,
  selectShifts,
  ShiftFilter,
  ShiftRow,
  softDeleteShifts,
  updateShift,
} from "./shift.store";
import { DeletedShifts, Shift, ShiftList } from "./shift.graphql";

describeConstraint("ex_shifts_no_overlap", "The staff member already has a shift that overlaps this time");
describeConstraint("ck_shifts_end_after_start", "endTime must be after startTime");
describeConstraint("ck_shift_breaks_end_after_start", "A break must end after it starts");

export type { ShiftRow } from "./shift.store";

export const SHIFT_LOCKED = "SHIFT_LOCKED";

/** A location as a shift needs it: its id and its time zone. */
interface ZonedLocation {
  locationId: string;
  timezone: string;
}

const MINUTE_MS = 60_000;

/**
 * A check another domain adds to every shift write (pay periods freeze approved timesheets): throws to refuse.
 * `staffHeld`: the write already holds the staff members' rows `FOR NO KEY UPDATE` (the time clock does), so
 * a guard need not lock them again.
 */
export type ShiftWriteGuard = (manager: EntityManager, organizationId: string, staffIds: string[], days: string[], staffHeld: boolean) => Promise<void>;

/** Shifts (timesheet entries): their rules of time, breaks, overlap and payroll locks. */
export class ShiftService {
  private readonly writeGuards: ShiftWriteGuard[] = [];

  constructor(private readonly deps: ServiceDeps) {}

  /** Adds a check run by every shift write, after the day-lock check, in its transaction. */
  guardWrites(guard: ShiftWriteGuard): void {
    this.writeGuards.push(guard);
  }

  async list(actor: Actor, args: ShiftListArgs): Promise<ShiftList> {
    const range = parseDateRange(args.startDate, args.endDate);
    const locationId = args.locationId === undefined ? undefined : filterId(args.locationId, "locationId");
    const staffId = this.staffScope(actor, args.employeeId);
    // A list of days of shifts may lag a few seconds (a client's own writes excepted): a replica answers when one is healthy.
    const manager = (await this.deps.reads.readerFor(actor)).manager;
    const rows = await selectListedShifts(
      manager,
      { organizationId: actor.organizationId, startDate: range.start, endDate: range.end, locationId, staffIds: staffId ? [staffId] : undefined },
      this.deps.config.maxListedShifts,
    );
    const shifts = presentShifts(rows, this.deps.clock.now());
    const lockedDays = await selectLockedDays(manager, actor.organizationId, range.start, range.end, locationId);
    const totals = { duration: 0, totalPaidBreaks: 0, totalUnpaidBreaks: 0, payableDuration: 0 };
    for (const s of shifts) {
      totals.duration += s.duration;
      totals.totalPaidBreaks += s.totalPaidBreaks;
      totals.totalUnpaidBreaks += s.totalUnpaidBreaks;
      totals.payableDuration += s.payableDuration;
    }
    return { shifts, lockedDays, totals };
  }

  /** Shifts of many staff members in a range of days, for loaders. */
  async ofStaff(actor: Actor, staffIds: readonly string[], startDate: string, endDate: string): Promise<Shift[][]> {
    const range = parseDateRange(startDate, endDate);
    const only = ownRecordsOnly(actor, "timesheets:read", "timesheets:self");
    const allowed = only === null ? staffIds : staffIds.filter((id) => id === only);
    const filter: ShiftFilter = { organizationId: actor.organizationId, startDate: range.start, endDate: range.end, staffIds: allowed };
    const shifts = presentShifts(await selectListedShifts(this.deps.db.manager, filter, this.deps.config.maxListedShifts), this.deps.clock.now());
    return groupByKeys(staffIds, shifts, (s) => s.employeeId);
  }

  /** One shift; a worker reading another's shift is told it does not exist. */
  async get(actor: Actor, id: string): Promise<Shift> {
    const row = await selectShift(this.deps.db.manager, actor.organizationId, requireUuid(id, "Shift"));
    const only = ownRecordsOnly(actor, "timesheets:read", "timesheets:self");
    if (!row || (only !== null && row.staff_id !== only)) throw notFound("Shift");
    return this.present(row);
  }

  /** A shift row as the API shows it, its running time counted to now. */
  present(row: ShiftRow): Shift {
    return presentShift(row, this.deps.clock.now().getTime());
  }

  /** The staff member's open shift (no end yet), in the caller's transaction; `lock` holds it until commit. */
  openShiftOf(manager: EntityManager, organizationId: string, staffId: string, lock: boolean): Promise<ShiftRow | undefined> {
    return selectOpenShift(manager, organizationId, staffId, lock);
  }

  /** Clock-out: the shift ends at `at` and stops being active, in the caller's transaction. */
  endShift(manager: EntityManager, organizationId: string, shiftId: string, at: Date): Promise<void> {
    return endShift(manager, organizationId, shiftId, at);
  }

  /** The running break ends at `at`, in the caller's transaction. */
  endBreak(manager: EntityManager, organizationId: string, breakId: string, at: Date): Promise<void> {
    return endBreak(manager, organizationId, breakId, at);
  }

  async create(actor: Actor, input: CreateShiftInput): Promise<Shift> {
    const org = actor.organizationId;
    let attempt: ShiftTime | undefined;
    const id = await this.deps.unitOfWork
      .run(async (manager) => {
        const place = await this.placeOfWork(manager, org, input.employeeId, input.locationId, input.roleId);
        const { location, roleId } = place;
        const staffId = await this.requireStaffMember(manager, org, input.employeeId, "employeeId");
        const start = parseTimestamp(input.startTime, location.timezone, "startTime");
        const end = input.endTime == null ? null : parseTimestamp(input.endTime, location.timezone, "endTime");
        checkOrder(start, end);
        await this.assertUnlocked(manager, org, location, [start], [staffId]);
        const breaks = await this.resolveBreaks(manager, org, location, input.breaks ?? [], start, end);
        const wage = input.hourlyWage ?? place.wage;
        attempt = { staffId, start, end };
        return this.insertShift(manager, org, { staffId, locationId: location.locationId, roleId, start, end, wage }, breaks);
      })
      .catch(async (error: unknown) => {
        throw await this.shiftInTheWay(error, org, attempt);
      });
    return this.get(actor, id);
  }

  async update(actor: Actor, id: string, input: UpdateShiftInput): Promise<Shift> {
    rejectNulls(input);
    const org = actor.organizationId;
    const shiftId = requireUuid(id, "Shift");
    let attempt: ShiftTime | undefined;
    await this.deps.unitOfWork
      .run(async (manager) => {
        const row = await selectShift(manager, org, shiftId, true);
        if (!row) throw notFound("Shift");
        const location = { locationId: row.location_id, timezone: row.timezone };
        const start = input.startTime === undefined ? row.start_time : parseTimestamp(input.startTime, location.timezone, "startTime");
        const end = input.endTime === undefined ? row.end_time : parseTimestamp(input.endTime, location.timezone, "endTime");
        checkOrder(start, end);
        await this.assertUnlocked(manager, org, location, [row.start_time, start], [row.staff_id]);
        attempt = { staffId: row.staff_id, start, end, shiftId };
        const roleId = input.roleId === undefined ? row.role_id : await this.requireRole(manager, org, input.roleId);
        const breaks = input.breaks && (await this.resolveBreaks(manager, org, location, input.breaks, start, end));
        await updateShift(manager, org, shiftId, { start, end, roleId, wage: input.hourlyWage ?? null });
        if (breaks) {
          await deleteBreaks(manager, org, shiftId);
          await insertBreaks(manager, org, shiftId, breaks);
        } else if (end) {
          // A shift closed by hand closes its running break with it.
          await closeRunningBreak(manager, org, shiftId, end);
        }
      })
      .catch(async (error: unknown) => {
        throw await this.shiftInTheWay(error, org, attempt);
      });
    return this.get(actor, shiftId);
  }

  /** Soft delete: the shift leaves every list, report and total. */
  async delete(actor: Actor, id: string): Promise<boolean> {
    const org = actor.organizationId;
    const shiftId = requireUuid(id, "Shift");
    return this.deps.unitOfWork.run(async (manager) => {
      const row = await selectShift(manager, org, shiftId, true);
      if (!row) throw notFound("Shift");
      await this.assertUnlocked(manager, org, { locationId: row.location_id, timezone: row.timezone }, [row.start_time], [row.staff_id]);
      await softDeleteShifts(manager, org, [shiftId], this.deps.clock.now());
      return true;
    });
  }

  /** Deletes every shift starting on a local day (optionally of one location); all or nothing. */
  async deleteOnDate(actor: Actor, date: string, locationId?: string): Promise<DeletedShifts> {
    const day = parseDate(date, "date");
    const location = locationId === undefined ? undefined : filterId(locationId, "locationId");
    const org = actor.organizationId;
    return this.deps.unitOfWork.run(async (manager) => {
      // A location of another organization is as unknown as one that does not exist.
      if (location && !(await selectLocation(manager, org, location))) throw notFound("Location");
      const rows = await selectShifts(manager, { organizationId: org, startDate: day, endDate: day, locationId: location });
      const byLocation = new Map<string, ShiftRow[]>();
      for (const r of rows) byLocation.set(r.location_id, [...(byLocation.get(r.location_id) ?? []), r]);
      for (const [loc, shifts] of [...byLocation].sort(([a], [b]) => a.localeCompare(b))) {
        await this.assertUnlocked(
          manager,
          org,
          { locationId: loc, timezone: shifts[0].timezone },
          [shifts[0].start_time],
          shifts.map((r) => r.staff_id),
        );
      }
      const ids = rows.map((r) => r.id);
      if (!ids.length) return { deleted: 0 };
      const deleted = await softDeleteShifts(manager, org, ids, this.deps.clock.now());
      return { deleted: deleted.length };
    });
  }

  // --- building blocks shared with the time clock ---

  /** The location a shift is at, with its time zone; an unknown one is a 404 naming `field`. */
  async zonedLocation(manager: EntityManager, organizationId: string, locationId: string, field = "locationId"): Promise<ZonedLocation> {
    if (!isUuid(locationId)) throw invalidField(field, `Unknown location ${locationId}`);
    const location = await selectLocation(manager, organizationId, locationId);
    if (!location) throw unknownReference(field, `Unknown location ${locationId}`);
    return location;
  }

  async requireStaffMember(manager: EntityManager, organizationId: string, staffId: string, field: string): Promise<string> {
    const [id] = await requireInOrganization(manager, "staff_members", organizationId, [staffId], field, {
      where: "deleted_at IS NULL",
      message: () => `Unknown staff member ${staffId}`,
    });
    return id;
  }

  private async requireRole(manager: EntityManager, organizationId: string, roleId: string): Promise<string> {
    const [id] = await requireInOrganization(manager, "roles", organizationId, [roleId], "roleId", { message: () => `Unknown role ${roleId}` });
    return id;
  }

  /**
   * The location (with its zone), the role, and the staff member's default wage for the role (their
   * wage for it, else the role's, else their own), in one read: what a new shift needs. Refuses an
   * unknown location, then an unknown role; the staff member is the caller's to check.
   */
  async placeOfWork(
    manager: EntityManager,
    organizationId: string,
    staffId: string,
    locationId: string,
    roleId: string,
  ): Promise<{ location: ZonedLocation; roleId: string; wage: string }> {
    if (!isUuid(locationId)) throw invalidField("locationId", `Unknown location ${locationId}`);
    const place = await selectPlaceOfWork(manager, organizationId, {
      staffId: isUuid(staffId) ? staffId : null,
      locationId,
      roleId: isUuid(roleId) ? roleId : null,
    });
    if (!place.location) throw unknownReference("locationId", `Unknown location ${locationId}`);
    if (!isUuid(roleId)) throw invalidField("roleId", `Unknown role ${roleId}`);
    if (!place.roleId) throw unknownReference("roleId", `Unknown role ${roleId}`);
    return { location: place.location, roleId: place.roleId, wage: place.wage };
  }

  /**
   * Refuses (409 SHIFT_LOCKED) when a local day of these instants is locked; holds the days against
   * locking until commit. Then the write guards, for the staff members whose shifts change (`staffHeld`: the
   * caller holds their rows already, see `ShiftWriteGuard`).
   */
  async assertUnlocked(
    manager: EntityManager,
    organizationId: string,
    location: ZonedLocation,
    instants: Date[],
    staffIds: string[],
    { staffHeld = false }: { staffHeld?: boolean } = {},
  ): Promise<void> {
    const days = instants.map((t) => localDate(t, location.timezone));
    await guardDays(manager, organizationId, location.locationId, days, "shared");
    const locked = await lockedAmong(manager, organizationId, location.locationId, days);
    if (locked.length) throw conflict(`The shift's day ${locked[0]} is locked for payroll; unlock it first`, SHIFT_LOCKED);
    for (const guard of this.writeGuards) await guard(manager, organizationId, [...new Set(staffIds)].sort(), [...new Set(days)], staffHeld);
  }

  /**
   * A refused overlap names the shift in the way, read after the refusal: the exclusion
   * constraint only says that there is one, and the caller needs to know which to move.
   */
  private async shiftInTheWay(error: unknown, org: string, attempt: ShiftTime | undefined): Promise<unknown> {
    const e = error as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
    const cause = e.driverError ?? e;
    if (!attempt || cause.code !== "23P01" || cause.constraint !== "ex_shifts_no_overlap") return error;
    const other = await selectOverlappingShift(this.deps.db.manager, org, attempt);
    if (!other) return error;
    // In the shift's own local time with its offset, as every shift field is given.
    const from = formatLocal(new Date(other.start_time), other.timezone);
    const to = other.end_time === null ? "still open" : formatLocal(new Date(other.end_time), other.timezone);
    const message = `The staff member already has a shift that overlaps this time: shift ${other.id}, ${from} to ${to}`;
    return new AppError("CONFLICT", message, [
      { field: "startTime", message },
      { field: "conflictingShift.id", message: other.id },
      { field: "conflictingShift.startTime", message: from },
      { field: "conflictingShift.endTime", message: to },
    ]);
  }

  async insertShift(
    manager: EntityManager,
    organizationId: string,
    shift: { staffId: string; locationId: string; roleId: string; start: Date; end: Date | null; wage: number | string },
    breaks: NewBreak[],
  ): Promise<string> {
    const id = await insertShift(manager, organizationId, shift);
    await insertBreaks(manager, organizationId, id, breaks);
    return id;
  }

  insertBreaks(manager: EntityManager, organizationId: string, shiftId: string, breaks: NewBreak[]): Promise<void> {
    return insertBreaks(manager, organizationId, shiftId, breaks);
  }

  /** A break type of the location that is not deleted; `field` names the input in the 400 or 404. */
  async breakTypesOf(
    manager: EntityManager,
    organizationId: string,
    locationId: string,
    ids: string[],
    field: (i: number) => string,
  ): Promise<Map<string, BreakType>> {
    const wanted = [...new Set(ids)];
    const bad = wanted.findIndex((id) => !isUuid(id));
    if (bad >= 0) throw invalidField(field(ids.indexOf(wanted[bad])), `Unknown break type ${wanted[bad]}`);
    const types = await selectBreakTypes(manager, organizationId, locationId, wanted);
    const byId = new Map(types.map((t) => [t.id, t]));
    const missing = ids.findIndex((id) => !byId.has(id.toLowerCase()));
    if (missing >= 0) throw unknownReference(field(missing), `Break type ${ids[missing]} is not a break type of this shift's location`);
    return byId;
  }

  /**
   * Reads and checks the breaks of a shift: each inside the shift, none overlapping another, only
   * the last one of an open shift may still be running; a break type fills what is not given.
   */
  async resolveBreaks(
    manager: EntityManager,
    organizationId: string,
    location: ZonedLocation,
    inputs: ShiftBreakInput[],
    shiftStart: Date,
    shiftEnd: Date | null,
  ): Promise<NewBreak[]> {
    const typed = inputs.map((b, i) => ({ b, i })).filter(({ b }) => b.typeId != null);
    const types = await this.breakTypesOf(
      manager,
      organizationId,
      location.locationId,
      typed.map(({ b }) => b.typeId!),
      (k) => `breaks.${typed[k].i}.typeId`,
    );
    const breaks = inputs.map((b, i): NewBreak => {
      const field = (name: string) => `breaks.${i}.${name}`;
      const type = b.typeId != null ? types.get(b.typeId.toLowerCase()) : undefined;
      const start = parseTimestamp(b.startTime, location.timezone, field("startTime"));
      const end = b.endTime == null ? null : parseTimestamp(b.endTime, location.timezone, field("endTime"));
      if (end === null && shiftEnd !== null) throw invalidField(field("endTime"), "A break of a closed shift needs an endTime");
      if (end !== null && end <= start) throw invalidField(field("endTime"), "A break must end after it starts");
      if (start < shiftStart || (shiftEnd !== null && (end ?? start) > shiftEnd)) throw invalidField(field("startTime"), "A break must lie inside its shift");
      const ownMinutes = end ? Math.round((end.getTime() - start.getTime()) / MINUTE_MS) : 0;
      return {
        breakTypeId: type?.id ?? null,
        start,
        end,
        paid: b.paid ?? type?.paid ?? false,
        name: b.name?.trim() ?? type?.name ?? "Break",
        mandatory: b.mandatory ?? type?.mandatory ?? false,
        frequencyMinutes: b.frequencyMinutes ?? type?.frequencyMinutes ?? 0,
        durationMinutes: b.durationInSettingsMinutes ?? type?.durationMinutes ?? ownMinutes,
      };
    });
    const order = breaks.map((_, i) => i).sort((x, y) => breaks[x].start.getTime() - breaks[y].start.getTime());
    for (let k = 1; k < order.length; k++) {
      const previous = breaks[order[k - 1]];
      if (previous.end === null || previous.end > breaks[order[k]].start) {
        throw invalidField(`breaks.${order[k]}.startTime`, "Breaks of a shift must not overlap");
      }
    }
    return order.map((i) => breaks[i]);
  }

  /** The employee a list is narrowed to: a worker sees only their own shifts. */
  private staffScope(actor: Actor, staffId: string | undefined): string | undefined {
    const only = ownRecordsOnly(actor, "timesheets:read", "timesheets:self");
    if (staffId === undefined) return only ?? undefined;
    const id = filterId(staffId, "employeeId");
    requireSelfOr(actor, "timesheets:read", "timesheets:self", id);
    return id;
  }
}

/** Where a shift is being put: the times a refused overlap is about. */
interface ShiftTime {
  staffId: string;
  start: Date;
  end: Date | null;
  shiftId?: string;
}

function checkOrder(start: Date, end: Date | null): void {
  if (end !== null && end <= start) throw invalidField("endTime", "endTime must be after startTime");
}
