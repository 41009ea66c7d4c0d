import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../../graphql/authorization";
import type { RequestContext } from "../../../graphql/context";
import { EmployeeReport, GroupedReportArgs, ReportArgs, ShiftReport } from "./shift-report.graphql";
import { TimesheetSettings } from "../settings/timesheet-settings.entity";
import { UpdateTimesheetSettingsInput } from "../settings/timesheet-settings.graphql";

@Resolver()
export class ShiftReportResolver {
  @Query(() => [EmployeeReport], { description: "Per employee: regular and overtime hours, breaks, pay, shifts, mandatory-break violations" })
  @Requires("timesheets:read")
  async employeeShiftReports(@Args() args: ReportArgs, @Ctx() ctx: RequestContext): Promise<EmployeeReport[]> {
    return ctx.services.shiftReports.employees(actorOf(ctx), { ...args, ...(await ctx.services.payPeriods.rangeOf(actorOf(ctx), args)) });
  }

  @Query(() => ShiftReport, { description: "Hours and labor cost by day, location or role" })
  @Requires("timesheets:read")
  async shiftReport(@Args() args: GroupedReportArgs, @Ctx() ctx: RequestContext): Promise<ShiftReport> {
    return ctx.services.shiftReports.grouped(actorOf(ctx), { ...args, ...(await ctx.services.payPeriods.rangeOf(actorOf(ctx), args)) });
  }

  @Query(() => TimesheetSettings)
  @Requires("timesheets:read")
  timesheetSettings(@Ctx() ctx: RequestContext): Promise<TimesheetSettings> {
    return ctx.services.timesheetSettings.get(actorOf(ctx));
  }

  @Mutation(() => TimesheetSettings)
  @Requires("timesheets:write")
  updateTimesheetSettings(@Arg("input") input: UpdateTimesheetSettingsInput, @Ctx() ctx: RequestContext): Promise<TimesheetSettings> {
    return ctx.services.timesheetSettings.update(actorOf(ctx), input);
  }
}
