import { actorOf } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { Shift } from "./shift.types";

/** Shifts of staff members in one range of days; one loader (one query) per distinct range. */
export const staffShiftsLoader = (ctx: RequestContext, startDate: string, endDate: string) =>
  ctx.loaders.get<string, Shift[]>(`staffShifts:${startDate}:${endDate}`, (ids) => ctx.services.shifts.ofEmployees(actorOf(ctx), ids, startDate, endDate));
