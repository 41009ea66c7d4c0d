import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { actorOf, Requires } from "../../../graphql/authorization";
import type { RequestContext } from "../../../graphql/context";
import { Location, locationLoader } from "../../locations";
import { Role, roleLoader } from "../../roles";
import { staffLoader, StaffMember } from "../../staff";
import { ShiftNote } from "../notes/shift-note.entity";
import { shiftNotesLoader } from "../notes/shift-note.loaders";
import { CreateShiftInput, ShiftListArgs, UpdateShiftInput } from "./shift.graphql";
import { DayLock, DayLockInput } from "../day-locks/day-lock.graphql";
import { staffShiftsLoader } from "./shift.loaders";
import { DeletedShifts, Shift, ShiftList } from "./shift.graphql";

@Resolver(() => Shift)
export class ShiftResolver {
  @Query(() => ShiftList, { description: "Shifts starting on the local days of the range (a worker sees their own)" })
  @Requires("timesheets:read", "timesheets:self")
  timesheets(@Args() args: ShiftListArgs, @Ctx() ctx: RequestContext): Promise<ShiftList> {
    return ctx.services.shifts.list(actorOf(ctx), args);
  }

  @Query(() => Shift)
  @Requires("timesheets:read", "timesheets:self")
  shift(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<Shift> {
    return ctx.services.shifts.get(actorOf(ctx), id);
  }

  @Mutation(() => Shift)
  @Requires("timesheets:write")
  createShift(@Arg("input") input: CreateShiftInput, @Ctx() ctx: RequestContext): Promise<Shift> {
    return ctx.services.shifts.create(actorOf(ctx), input);
  }

  @Mutation(() => Shift)
  @Requires("timesheets:write")
  updateShift(@Arg("id", () => ID) id: string, @Arg("input") input: UpdateShiftInput, @Ctx() ctx: RequestContext): Promise<Shift> {
    return ctx.services.shifts.update(actorOf(ctx), id, input);
  }

  @Mutation(() => Boolean, { description: "Soft delete; refused (SHIFT_LOCKED) on a locked day" })
  @Requires("timesheets:write")
  deleteShift(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.shifts.delete(actorOf(ctx), id);
  }

  @Mutation(() => DeletedShifts, { description: "Deletes every shift starting on the local day; nothing at all when one of them is locked" })
  @Requires("timesheets:write")
  deleteShiftsOnDate(
    @Arg("date") date: string,
    @Arg("locationId", () => ID, { nullable: true }) locationId: string | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<DeletedShifts> {
    return ctx.services.shifts.deleteOnDate(actorOf(ctx), date, locationId ?? undefined);
  }

  @Mutation(() => DayLock)
  @Requires("timesheets:lock")
  lockDay(@Arg("input") input: DayLockInput, @Ctx() ctx: RequestContext): Promise<DayLock> {
    return ctx.services.dayLocks.lock(actorOf(ctx), input);
  }

  @Mutation(() => DayLock)
  @Requires("timesheets:lock")
  unlockDay(@Arg("input") input: DayLockInput, @Ctx() ctx: RequestContext): Promise<DayLock> {
    return ctx.services.dayLocks.unlock(actorOf(ctx), input);
  }

  @FieldResolver(() => StaffMember, { nullable: true })
  employee(@Root() shift: Shift, @Ctx() ctx: RequestContext): Promise<StaffMember | null> {
    return staffLoader(ctx).load(shift.employeeId);
  }

  @FieldResolver(() => Role, { nullable: true })
  role(@Root() shift: Shift, @Ctx() ctx: RequestContext): Promise<Role | null> {
    return roleLoader(ctx).load(shift.roleId);
  }

  @FieldResolver(() => Location, { nullable: true })
  location(@Root() shift: Shift, @Ctx() ctx: RequestContext): Promise<Location | null> {
    return locationLoader(ctx).load(shift.locationId);
  }

  @FieldResolver(() => [ShiftNote])
  notes(@Root() shift: Shift, @Ctx() ctx: RequestContext): Promise<ShiftNote[]> {
    return shiftNotesLoader(ctx).load(shift.id);
  }
}

@Resolver(() => StaffMember)
export class StaffShiftsResolver {
  @FieldResolver(() => [Shift], { description: "The staff member's shifts starting on the local days of the range" })
  @Requires("timesheets:read", "timesheets:self")
  shifts(@Root() staff: StaffMember, @Arg("startDate") startDate: string, @Arg("endDate") endDate: string, @Ctx() ctx: RequestContext): Promise<Shift[]> {
    return staffShiftsLoader(ctx, startDate, endDate).load(staff.id);
  }
}
