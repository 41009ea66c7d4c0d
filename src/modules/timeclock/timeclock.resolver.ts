import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { Shift } from "../timesheets";
import type { PunchSource } from "./timeclock.service";
import { BreakStartInput, ClockInInput, ClockOutInput, ShiftState } from "./timeclock.types";

/** Where a punch comes from: the caller's address and the device header. */
const punchSource = (ctx: RequestContext): PunchSource => ({ clientAddress: ctx.clientAddress, deviceToken: ctx.clockDeviceToken });

@Resolver()
export class TimeClockResolver {
  @Query(() => ShiftState)
  @Requires("timeclock:self", "timeclock:manage")
  shiftState(@Arg("workerId", () => ID, { nullable: true }) staffId: string | undefined, @Ctx() ctx: RequestContext): Promise<ShiftState> {
    return ctx.services.timeClock.state(actorOf(ctx), staffId ?? undefined);
  }

  @Mutation(() => Shift, { description: "Opens a shift (409 ALREADY_CLOCKED_IN when one is open)" })
  @Requires("timeclock:self", "timeclock:manage")
  clockIn(@Arg("input") input: ClockInInput, @Ctx() ctx: RequestContext): Promise<Shift> {
    return ctx.services.timeClock.clockIn(actorOf(ctx), input, punchSource(ctx));
  }

  @Mutation(() => Shift, { description: "Closes the open shift and any running break (409 NOT_CLOCKED_IN)" })
  @Requires("timeclock:self", "timeclock:manage")
  clockOut(@Arg("input") input: ClockOutInput, @Ctx() ctx: RequestContext): Promise<Shift> {
    return ctx.services.timeClock.clockOut(actorOf(ctx), input, punchSource(ctx));
  }

  @Mutation(() => Shift, { description: "Starts a break on the open shift (409 NOT_CLOCKED_IN, ALREADY_ON_BREAK)" })
  @Requires("timeclock:self", "timeclock:manage")
  startBreak(@Arg("input") input: BreakStartInput, @Ctx() ctx: RequestContext): Promise<Shift> {
    return ctx.services.timeClock.startBreak(actorOf(ctx), input);
  }

  @Mutation(() => Shift, { description: "Ends the running break (409 NOT_CLOCKED_IN, NOT_ON_BREAK)" })
  @Requires("timeclock:self", "timeclock:manage")
  endBreak(@Arg("input") input: ClockOutInput, @Ctx() ctx: RequestContext): Promise<Shift> {
    return ctx.services.timeClock.endBreak(actorOf(ctx), input);
  }
}
