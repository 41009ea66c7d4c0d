import { Args, Ctx, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../../graphql/authorization";
import type { RequestContext } from "../../../graphql/context";
import { ShiftExportRow } from "./shift-export.graphql";
import { ShiftListArgs } from "../shifts/shift.graphql";

@Resolver(() => ShiftExportRow)
export class ShiftExportResolver {
  @Query(() => [ShiftExportRow], { description: "The payroll export's rows (GET /api/timesheets/export streams the same rows as CSV or JSON)" })
  @Requires("timesheets:read")
  shiftExport(@Args() args: ShiftListArgs, @Ctx() ctx: RequestContext): Promise<ShiftExportRow[]> {
    return ctx.services.shiftExport.rows(actorOf(ctx), args);
  }
}
