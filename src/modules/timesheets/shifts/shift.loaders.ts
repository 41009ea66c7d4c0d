import type { RequestContext } from "../../../graphql/context";
import { requestLoader } from "../../../graphql/request-loader";
import { Shift } from "./shift.graphql";

/** Shifts of staff members in one range of days; one loader (one query) per distinct range. */
export const staffShiftsLoader = (ctx: RequestContext, startDate: string, endDate: string) =>
  requestLoader<string, Shift[]>(`staffShifts:${startDate}:${endDate}`, (services, actor, ids) => services.shifts.ofStaff(actor, ids, startDate, endDate))(ctx);
