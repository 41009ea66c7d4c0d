import { Actor } from "../../../auth/actor";
import { parseDate } from "../../../common/time";
import { ServiceDeps } from "../../../common/services";
import { DayLock, DayLockInput } from "./day-lock.graphql";
import { EntityManager } from "typeorm";
import { guardDays, lockDay, lockDaysEverywhere, unlockDay } from "../shifts/shift.store";
import { ShiftService } from "../shifts/shift.service";

/**
 * Payroll locks: a locked day of a location freezes the shifts that start on it. Locking waits for
 * shift changes of that day in flight, and changes started later see the lock (see guardDays).
 */
export class DayLockService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly shifts: ShiftService,
  ) {}

  lock(actor: Actor, input: DayLockInput): Promise<DayLock> {
    return this.set(actor, input, true);
  }

  unlock(actor: Actor, input: DayLockInput): Promise<DayLock> {
    return this.set(actor, input, false);
  }

  /** Locks the days at every location, in the caller's transaction (closing a pay period). */
  lockEverywhereInTransaction(manager: EntityManager, organizationId: string, days: string[], lockedBy: string | null): Promise<void> {
    return lockDaysEverywhere(manager, organizationId, days, lockedBy);
  }

  private set(actor: Actor, input: DayLockInput, locked: boolean): Promise<DayLock> {
    const date = parseDate(input.date, "date");
    const org = actor.organizationId;
    return this.deps.unitOfWork.run(async (manager) => {
      const { locationId } = await this.shifts.zonedLocation(manager, org, input.locationId);
      await guardDays(manager, org, locationId, [date], "exclusive");
      if (locked) {
        await lockDay(manager, org, locationId, date, actor.staffId);
      } else {
        await unlockDay(manager, org, locationId, date);
      }
      return { locationId, date, locked };
    });
  }
}
