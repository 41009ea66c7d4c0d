import { EntityManager } from "typeorm";
import { Actor, requirePermission } from "../../auth/actor";
import { actingStaffId } from "../../common/ids";
import { parseTimestamp } from "../../common/time";
import { ServiceDeps } from "../../common/services";
import { conflict, invalidField, unknownReference } from "../../errors/app-error";
import type { Punch, PunchCheckService } from "../attendance";
import { Shift, ShiftRow, ShiftService } from "../timesheets";
import { staffMemberExists } from "./timeclock.store";
import { BreakStartInput, ClockInInput, ClockOutInput, ClockState, ShiftState } from "./timeclock.types";

/** Where a punch comes from, as the request tells it. */
export type PunchSource = Pick<Punch, "clientAddress" | "deviceToken">;

/** A break running now: its id and when it started (epoch milliseconds). */
interface RunningBreak {
  id: string;
  startMs: number;
}

interface OpenShift {
  row: ShiftRow;
  openBreak: RunningBreak | undefined;
}

/**
 * The time clock. Every action locks the staff member's row first, so a worker's clock actions
 * run one after another even across processes: a double clock-in is always ALREADY_CLOCKED_IN.
 */
export class TimeClockService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly shifts: ShiftService,
    private readonly punchChecks: PunchCheckService,
  ) {}

  async state(actor: Actor, requested?: string): Promise<ShiftState> {
    const staffId = actingStaffId(actor, requested, "timeclock:manage", "timeclock:self");
    const manager = this.deps.db.manager;
    await this.requireStaffMember(manager, actor.organizationId, staffId, false);
    const open = await this.openShift(manager, actor.organizationId, staffId, false);
    if (!open) return { staffId, state: ClockState.CLOCKED_OUT, shift: null, currentBreak: null };
    const shift = this.shifts.present(open.row);
    const currentBreak = open.openBreak ? (shift.breaks.find((b) => b.id === open.openBreak!.id) ?? null) : null;
    return { staffId, state: currentBreak ? ClockState.ON_BREAK : ClockState.CLOCKED_IN, shift, currentBreak };
  }

  async clockIn(actor: Actor, input: ClockInInput, source: PunchSource = {}): Promise<Shift> {
    const staffId = actingStaffId(actor, input.workerId, "timeclock:manage", "timeclock:self");
    const org = actor.organizationId;
    const id = await this.deps.unitOfWork.run(async (manager) => {
      await this.requireStaffMember(manager, org, staffId, true);
      if (await this.openShift(manager, org, staffId, true)) throw conflict("The worker is already clocked in; clock out first", "ALREADY_CLOCKED_IN");
      const { location, roleId, wage } = await this.shifts.placeOfWork(manager, org, staffId, input.locationId, input.roleId);
      const at = this.when(actor, input.time, location.timezone);
      await this.shifts.assertUnlocked(manager, org, location, [at], [staffId], { staffHeld: true });
      const shiftId = await this.shifts.insertShift(manager, org, { staffId, locationId: location.locationId, roleId, start: at, end: null, wage }, []);
      await this.punchChecks.checkInTransaction(manager, org, {
        ...input,
        ...source,
        kind: "IN",
        staffId,
        location,
        shiftId,
        shiftStart: at,
        at,
        corrected: input.time != null,
      });
      return shiftId;
    });
    return this.shifts.get(actor, id);
  }

  async startBreak(actor: Actor, input: BreakStartInput): Promise<Shift> {
    return this.onOpenShift(actor, input, async (manager, open, at) => {
      if (open.openBreak) throw conflict("The worker is already on a break; end it first", "ALREADY_ON_BREAK");
      const types = await this.shifts.breakTypesOf(manager, actor.organizationId, open.row.location_id, [input.typeId], () => "typeId");
      const type = types.get(input.typeId.toLowerCase())!;
      if (!type.enabled) throw invalidField("typeId", `Break type "${type.name}" is switched off`);
      const lastEnd = open.row.breaks.reduce((latest, [, endMs]) => Math.max(latest, endMs ?? 0), open.row.start_time.getTime());
      if (at.getTime() < lastEnd) throw invalidField("time", "A break cannot start before the shift or a previous break ended");
      await this.shifts.insertBreaks(manager, actor.organizationId, open.row.id, [
        {
          breakTypeId: type.id,
          start: at,
          end: null,
          paid: type.paid,
          name: type.name,
          mandatory: type.mandatory,
          frequencyMinutes: type.frequencyMinutes,
          durationMinutes: type.durationMinutes,
        },
      ]);
    });
  }

  async endBreak(actor: Actor, input: ClockOutInput): Promise<Shift> {
    return this.onOpenShift(actor, input, async (manager, open, at) => {
      if (!open.openBreak) throw conflict("The worker is not on a break", "NOT_ON_BREAK");
      await this.closeBreak(manager, actor.organizationId, open.openBreak, at);
    });
  }

  /** Closes the open shift, and its running break with it. */
  async clockOut(actor: Actor, input: ClockOutInput, source: PunchSource = {}): Promise<Shift> {
    return this.onOpenShift(actor, input, async (manager, open, at) => {
      if (at <= open.row.start_time) throw invalidField("time", "Clock-out must come after clock-in");
      if (open.openBreak) await this.closeBreak(manager, actor.organizationId, open.openBreak, at);
      await this.shifts.endShift(manager, actor.organizationId, open.row.id, at);
      const location = { locationId: open.row.location_id, timezone: open.row.timezone };
      const punch = {
        ...input,
        ...source,
        kind: "OUT" as const,
        staffId: open.row.staff_id,
        location,
        shiftId: open.row.id,
        shiftStart: open.row.start_time,
        at,
      };
      await this.punchChecks.checkInTransaction(manager, actor.organizationId, { ...punch, corrected: input.time != null });
    });
  }

  /** Runs a change on the worker's open shift (NOT_CLOCKED_IN without one), then answers the shift. */
  private async onOpenShift(actor: Actor, input: ClockOutInput, change: (manager: EntityManager, open: OpenShift, at: Date) => Promise<void>): Promise<Shift> {
    const staffId = actingStaffId(actor, input.workerId, "timeclock:manage", "timeclock:self");
    const org = actor.organizationId;
    const id = await this.deps.unitOfWork.run(async (manager) => {
      await this.requireStaffMember(manager, org, staffId, true);
      const open = await this.openShift(manager, org, staffId, true);
      if (!open) throw conflict("The worker is not clocked in", "NOT_CLOCKED_IN");
      const location = { locationId: open.row.location_id, timezone: open.row.timezone };
      await this.shifts.assertUnlocked(manager, org, location, [open.row.start_time], [staffId], { staffHeld: true });
      await change(manager, open, this.when(actor, input.time, location.timezone));
      return open.row.id;
    });
    return this.shifts.get(actor, id);
  }

  private async closeBreak(manager: EntityManager, organizationId: string, open: RunningBreak, at: Date): Promise<void> {
    if (at.getTime() <= open.startMs) throw invalidField("time", "A break must end after it starts");
    await this.shifts.endBreak(manager, organizationId, open.id, at);
  }

  /** Now, or a manager's corrected time (never in the future). */
  private when(actor: Actor, time: string | undefined | null, zone: string): Date {
    const now = this.deps.clock.now();
    if (time == null) return now;
    requirePermission(actor, "timeclock:manage");
    const at = parseTimestamp(time, zone, "time");
    if (at > now) throw invalidField("time", "A corrected time cannot be in the future");
    return at;
  }

  /** Checks the staff member exists in the organization; `lock` serializes their clock actions. */
  private async requireStaffMember(manager: EntityManager, organizationId: string, staffId: string, lock: boolean): Promise<void> {
    if (!(await staffMemberExists(manager, organizationId, staffId, lock))) throw unknownReference("workerId", "Staff member not found");
  }

  private async openShift(manager: EntityManager, organizationId: string, staffId: string, lock: boolean): Promise<OpenShift | undefined> {
    const row = await this.shifts.openShiftOf(manager, organizationId, staffId, lock);
    if (!row) return undefined;
    const running = row.breaks.find(([, endMs]) => endMs === null);
    if (!running) return { row, openBreak: undefined };
    const [startMs, , , id] = running;
    return { row, openBreak: { id, startMs } };
  }
}
