import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { Page } from "../../common/pagination";
import { actorOf, Requires } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { ClockDevice, RegisterClockDeviceInput, RegisteredClockDevice } from "./clock-devices/clock-devices.graphql";
import { ClockRules, ClockRulesInput } from "./clock-rules/clock-rules.graphql";
import {
  AttendanceException,
  AttendanceExceptionArgs,
  AttendanceExceptionConnection,
  ResolveAttendanceExceptionInput,
} from "./exceptions/attendance-exception.graphql";
import { AttendancePolicy, AttendancePolicyInput } from "./policy/attendance-policy.graphql";

@Resolver()
export class AttendanceResolver {
  @Query(() => ClockRules, { description: "A location's clock-in rules" })
  @Requires("attendance:read")
  clockRules(@Arg("locationId", () => ID) locationId: string, @Ctx() ctx: RequestContext): Promise<ClockRules> {
    return ctx.services.clockRules.get(actorOf(ctx), locationId);
  }

  @Mutation(() => ClockRules, { description: "Replaces a location's clock-in rules" })
  @Requires("attendance:manage")
  setClockRules(@Arg("locationId", () => ID) locationId: string, @Arg("input") input: ClockRulesInput, @Ctx() ctx: RequestContext): Promise<ClockRules> {
    return ctx.services.clockRules.put(actorOf(ctx), locationId, input);
  }

  @Query(() => [ClockDevice], { description: "A location's registered time-clock devices, revoked ones included" })
  @Requires("attendance:manage")
  clockDevices(@Arg("locationId", () => ID) locationId: string, @Ctx() ctx: RequestContext): Promise<ClockDevice[]> {
    return ctx.services.clockDevices.list(actorOf(ctx), locationId);
  }

  @Mutation(() => RegisteredClockDevice, { description: "Registers a device; its token is in this answer only" })
  @Requires("attendance:manage")
  registerClockDevice(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("input") input: RegisterClockDeviceInput,
    @Ctx() ctx: RequestContext,
  ): Promise<RegisteredClockDevice> {
    return ctx.services.clockDevices.register(actorOf(ctx), locationId, input);
  }

  @Mutation(() => Boolean, { description: "Revokes a device: its token no longer punches" })
  @Requires("attendance:manage")
  revokeClockDevice(@Arg("locationId", () => ID) locationId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.clockDevices.revoke(actorOf(ctx), locationId, id);
  }

  @Query(() => AttendancePolicy, { description: "The organization's attendance thresholds" })
  @Requires("attendance:read", "attendance:self")
  attendancePolicy(@Ctx() ctx: RequestContext): Promise<AttendancePolicy> {
    return ctx.services.attendancePolicy.get(actorOf(ctx));
  }

  @Mutation(() => AttendancePolicy, { description: "Replaces the attendance policy; exceptions are recorded from then on" })
  @Requires("attendance:manage")
  setAttendancePolicy(@Arg("input") input: AttendancePolicyInput, @Ctx() ctx: RequestContext): Promise<AttendancePolicy> {
    return ctx.services.attendancePolicy.put(actorOf(ctx), input);
  }

  @Query(() => AttendanceExceptionConnection, { description: "Exceptions of a date range (a worker: their own), in the order found" })
  @Requires("attendance:read", "attendance:self")
  attendanceExceptions(@Args() args: AttendanceExceptionArgs, @Ctx() ctx: RequestContext): Promise<Page<AttendanceException>> {
    return ctx.services.attendanceExceptions.list(actorOf(ctx), args);
  }

  @Query(() => AttendanceException)
  @Requires("attendance:read", "attendance:self")
  attendanceException(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<AttendanceException> {
    return ctx.services.attendanceExceptions.get(actorOf(ctx), id);
  }

  @Mutation(() => AttendanceException, { description: "Excuses or resolves an OPEN exception with a note (409 when it is closed already)" })
  @Requires("attendance:manage")
  resolveAttendanceException(
    @Arg("id", () => ID) id: string,
    @Arg("input") input: ResolveAttendanceExceptionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<AttendanceException> {
    return ctx.services.attendanceExceptions.resolve(actorOf(ctx), id, input);
  }
}
