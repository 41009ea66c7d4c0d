import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { ClosePayPeriodInput, PayPeriod, PayScheduleInput, PayScheduleResult, PeriodTimesheet } from "./pay-period.graphql";

@Resolver()
export class PayPeriodResolver {
  @Query(() => PayScheduleResult, { description: "How the organization's pay periods run" })
  @Requires("payperiods:read", "payperiods:self")
  paySchedule(@Ctx() ctx: RequestContext): Promise<PayScheduleResult> {
    return ctx.services.payPeriods.schedule(actorOf(ctx));
  }

  @Mutation(() => PayScheduleResult)
  @Requires("payperiods:manage")
  setPaySchedule(@Arg("input") input: PayScheduleInput, @Ctx() ctx: RequestContext): Promise<PayScheduleResult> {
    return ctx.services.payPeriods.setSchedule(actorOf(ctx), input);
  }

  @Query(() => [PayPeriod], { description: "The pay periods overlapping [from, to] (dates, at most 366 days)" })
  @Requires("payperiods:read", "payperiods:self")
  payPeriods(@Arg("from") from: string, @Arg("to") to: string, @Ctx() ctx: RequestContext): Promise<PayPeriod[]> {
    return ctx.services.payPeriods.periods(actorOf(ctx), from, to);
  }

  @Query(() => [PeriodTimesheet], { description: "One timesheet per staff member for the period starting on startDate (a worker: their own)" })
  @Requires("payperiods:read", "payperiods:self")
  periodTimesheets(@Arg("startDate") startDate: string, @Ctx() ctx: RequestContext): Promise<PeriodTimesheet[]> {
    return ctx.services.payPeriods.timesheets(actorOf(ctx), startDate);
  }

  @Mutation(() => PeriodTimesheet, { description: "The worker submits their timesheet of the period, attesting its breaks" })
  @Requires("payperiods:self", "payperiods:manage")
  submitTimesheet(@Arg("startDate") startDate: string, @Arg("staffId", () => ID) staffId: string, @Ctx() ctx: RequestContext): Promise<PeriodTimesheet> {
    return ctx.services.payPeriods.submit(actorOf(ctx), startDate, staffId);
  }

  @Mutation(() => PeriodTimesheet, { description: "Approves a timesheet (409 while an open shift or an OPEN critical exception remains); its shifts freeze" })
  @Requires("payperiods:manage")
  approveTimesheet(@Arg("startDate") startDate: string, @Arg("staffId", () => ID) staffId: string, @Ctx() ctx: RequestContext): Promise<PeriodTimesheet> {
    return ctx.services.payPeriods.approve(actorOf(ctx), startDate, staffId);
  }

  @Mutation(() => PeriodTimesheet, { description: "Reopens a submitted or approved timesheet" })
  @Requires("payperiods:manage")
  reopenTimesheet(@Arg("startDate") startDate: string, @Arg("staffId", () => ID) staffId: string, @Ctx() ctx: RequestContext): Promise<PeriodTimesheet> {
    return ctx.services.payPeriods.reopen(actorOf(ctx), startDate, staffId);
  }

  @Mutation(() => PayPeriod, {
    description: "Closes the period: locks its days at every location (409 naming who is not approved, unless forced with a reason)",
  })
  @Requires("payperiods:manage")
  closePayPeriod(
    @Arg("startDate") startDate: string,
    @Arg("input", () => ClosePayPeriodInput, { nullable: true }) input: ClosePayPeriodInput | null,
    @Ctx() ctx: RequestContext,
  ): Promise<PayPeriod> {
    return ctx.services.payPeriods.close(actorOf(ctx), startDate, input ?? {});
  }
}
