import { EntityManager } from "typeorm";
import { hashSecret } from "../../auth/secrets";
import { ServiceDeps } from "../../common/services";
import { localDate } from "../../common/time";
import { AppError } from "../../errors/app-error";
import { ClockEnforcement, ClockRules } from "./clock-rules/clock-rules.graphql";
import { BrokenRule, ClockRuleName, earlyBreach, geofenceBreach, networkBreach } from "./clock-rules/clock-rules.rules";
import { deviceByHash } from "./clock-devices/clock-devices.store";
import { AttendanceExceptionKind } from "./exceptions/attendance-exception.graphql";
import { FoundException, insertExceptions, missedBreakTypes } from "./exceptions/attendance-exception.store";
import { MatchedEntry, selectPunchContext } from "./attendance.store";

/** A clock-in or clock-out as the time clock hands it over, inside its transaction, the shift already written. */
export interface Punch {
  kind: "IN" | "OUT";
  staffId: string;
  location: { locationId: string; timezone: string };
  shiftId: string;
  shiftStart: Date;
  at: Date;
  /** A manager's corrected time: an edit of the record, not a punch at a place, so the clock rules are not applied. */
  corrected: boolean;
  latitude?: number | null;
  longitude?: number | null;
  accuracyMeters?: number | null;
  /** The caller's address as Express computes it (`req.ip`). */
  clientAddress?: string;
  deviceToken?: string;
}

const MINUTE_MS = 60_000;

/**
 * What the time clock asks at each punch: the location's clock rules (BLOCK refuses with 403
 * CLOCK_RULE, FLAG records a CLOCK_RULE exception) and the exceptions a punch itself shows
 * (late, early out, unscheduled, long shift, missed break).
 */
export class PunchCheckService {
  constructor(private readonly deps: ServiceDeps) {}

  async checkInTransaction(manager: EntityManager, organizationId: string, punch: Punch): Promise<void> {
    const { rules, policy, entry } = await selectPunchContext(manager, organizationId, punch.location.locationId, punch.staffId, punch.shiftStart);
    const broken = rules && !punch.corrected ? await this.brokenRules(manager, organizationId, rules, punch, entry) : [];
    if (broken.length && rules!.enforcement === ClockEnforcement.BLOCK) {
      throw new AppError(
        "CLOCK_RULE",
        `The punch breaks the location's clock rules: ${broken.map((b) => b.message).join("; ")}`,
        broken.map((b) => ({ field: b.field, ruleId: b.rule, message: b.message })),
      );
    }
    const found: FoundException[] = [];
    const day = localDate(punch.shiftStart, punch.location.timezone);
    const record = (kind: AttendanceExceptionKind, minutes: number | null, message: string) =>
      found.push({
        kind,
        staffId: punch.staffId,
        locationId: punch.location.locationId,
        shiftId: punch.shiftId,
        entryId: entry?.id ?? null,
        day,
        minutes,
        message,
      });
    if (broken.length) record(AttendanceExceptionKind.CLOCK_RULE, null, broken.map((b) => `${b.rule}: ${b.message}`).join("; "));
    if (policy.enabled) {
      if (punch.kind === "IN") {
        const late = entry && wholeMinutes(punch.at.getTime() - entry.start.getTime());
        if (!entry) record(AttendanceExceptionKind.UNSCHEDULED_SHIFT, null, "Clocked in without a published schedule entry");
        else if (late! > policy.lateGraceMinutes)
          record(AttendanceExceptionKind.LATE_IN, late!, `Clocked in ${late} minutes after the scheduled start (grace ${policy.lateGraceMinutes})`);
      } else {
        const early = entry && wholeMinutes(entry.end.getTime() - punch.at.getTime());
        if (early! > policy.earlyOutGraceMinutes)
          record(AttendanceExceptionKind.EARLY_OUT, early!, `Clocked out ${early} minutes before the scheduled end (grace ${policy.earlyOutGraceMinutes})`);
        const worked = wholeMinutes(punch.at.getTime() - punch.shiftStart.getTime());
        const over = worked - Math.round(policy.longShiftHours * 60);
        if (over > 0) record(AttendanceExceptionKind.LONG_SHIFT, over, `The shift ran ${worked} minutes, ${over} over the ${policy.longShiftHours}-hour limit`);
        const missed = await missedBreakTypes(manager, organizationId, punch.location.locationId, punch.shiftId, worked);
        if (missed.length) {
          record(
            AttendanceExceptionKind.MISSED_BREAK,
            null,
            missed.map((b) => `No ${b.duration}-minute "${b.name}" break in a ${worked}-minute shift (required after ${b.frequency} minutes)`).join("; "),
          );
        }
      }
    }
    await insertExceptions(manager, organizationId, found, this.deps.clock.now());
  }

  private async brokenRules(
    manager: EntityManager,
    organizationId: string,
    rules: ClockRules,
    punch: Punch,
    entry: MatchedEntry | undefined,
  ): Promise<BrokenRule[]> {
    const broken: (BrokenRule | null)[] = [rules.geofence && geofenceBreach(rules.geofence, punch), networkBreach(punch.clientAddress, rules.allowedNetworks)];
    if (rules.requireDevice) broken.push(await this.deviceBreach(manager, organizationId, punch));
    if (punch.kind === "IN" && entry && rules.earlyClockInMinutes !== null) broken.push(earlyBreach(punch.at, entry.start, rules.earlyClockInMinutes));
    if (punch.kind === "IN" && !entry && rules.requireSchedule) {
      broken.push({
        rule: ClockRuleName.NOT_SCHEDULED,
        field: "workerId",
        message: "The location takes clock-ins only against a published schedule entry, and there is none",
      });
    }
    return broken.filter((b): b is BrokenRule => b !== null);
  }

  private async deviceBreach(manager: EntityManager, organizationId: string, punch: Punch): Promise<BrokenRule | null> {
    const unknown = (message: string) => ({ rule: ClockRuleName.UNKNOWN_DEVICE, field: "X-Clock-Device", message });
    if (!punch.deviceToken) return unknown("The location takes punches only from a registered device: send its token in X-Clock-Device");
    const device = await deviceByHash(manager, organizationId, hashSecret(punch.deviceToken));
    if (!device || device.locationId !== punch.location.locationId) return unknown("The X-Clock-Device token names no device registered at this location");
    if (device.revokedAt) return unknown(`The device "${device.name}" was revoked`);
    return null;
  }
}

function wholeMinutes(ms: number): number {
  return Math.floor(ms / MINUTE_MS);
}
