import { ServiceDeps } from "../../app/deps";
import { BreakTypeResolver, LocationBreakTypesResolver } from "../breaks/break-type.resolver";
import { breakTypeRoutes } from "../breaks/break-type.routes";
import { BreakTypeService } from "../breaks/break-type.service";
import { TimeClockResolver } from "../timeclock/timeclock.resolver";
import { timeClockRoutes } from "../timeclock/timeclock.routes";
import { TimeClockService } from "../timeclock/timeclock.service";
import { DayLockService } from "./day-lock.service";
import { ShiftExportResolver } from "./shift-export.resolver";
import { shiftExportRoutes } from "./shift-export.routes";
import { ShiftExportService } from "./shift-export";
import { ShiftNoteResolver } from "./shift-note.resolver";
import { ShiftReportResolver } from "./shift-report.resolver";
import { ShiftReportService } from "./shift-report.service";
import { TimesheetSettingsService } from "./timesheet-settings.service";
import { ShiftNoteService } from "./shift-note.service";
import { ShiftResolver, StaffShiftsResolver } from "./shift.resolver";
import { ShiftService } from "./shift.service";
import { timesheetRoutes } from "./timesheet.routes";

/** The payroll side of the service (break types, shifts, locks, notes, the time clock, exports, reports), as the registries take it. */
export function createTimesheetServices(deps: ServiceDeps) {
  const shifts = new ShiftService(deps);
  const timesheetSettings = new TimesheetSettingsService(deps);
  return {
    breakTypes: new BreakTypeService(deps),
    shifts,
    dayLocks: new DayLockService(deps, shifts),
    shiftNotes: new ShiftNoteService(deps, shifts),
    timeClock: new TimeClockService(deps, shifts),
    shiftExport: new ShiftExportService(deps, timesheetSettings),
    timesheetSettings,
    shiftReports: new ShiftReportService(deps, timesheetSettings),
  };
}

export const timesheetResolvers = [BreakTypeResolver, LocationBreakTypesResolver, ShiftResolver, StaffShiftsResolver, ShiftNoteResolver, TimeClockResolver, ShiftExportResolver, ShiftReportResolver];

export const timesheetRestRoutes = [...breakTypeRoutes, ...timesheetRoutes, ...timeClockRoutes];

export const timesheetRawRoutes = shiftExportRoutes;
