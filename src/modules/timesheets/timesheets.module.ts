import type { DomainModule } from "../module";
import { DayLockService } from "./day-locks/day-lock.service";
import { ShiftExportResolver } from "./export/shift-export.resolver";
import { shiftExportRoutes } from "./export/shift-export.routes";
import { ShiftExportService } from "./export/shift-export.service";
import { ShiftNoteResolver } from "./notes/shift-note.resolver";
import { ShiftReportResolver } from "./pay/shift-report.resolver";
import { ShiftReportService } from "./pay/shift-report.service";
import { TimesheetSettingsService } from "./settings/timesheet-settings.service";
import { ShiftNoteService } from "./notes/shift-note.service";
import { ShiftResolver, StaffShiftsResolver } from "./shifts/shift.resolver";
import { ShiftService } from "./shifts/shift.service";
import { timesheetRoutes } from "./timesheet.routes";

declare module "../../common/services" {
  interface Services {
    shifts: ShiftService;
    dayLocks: DayLockService;
    shiftNotes: ShiftNoteService;
    shiftExport: ShiftExportService;
    timesheetSettings: TimesheetSettingsService;
    shiftReports: ShiftReportService;
  }
}

/** The payroll side of the service: shifts, locked days, notes, exports and reports. */
export const timesheetsModule: DomainModule = {
  services: (deps) => {
    const shifts = new ShiftService(deps);
    const timesheetSettings = new TimesheetSettingsService(deps);
    return {
      shifts,
      dayLocks: new DayLockService(deps, shifts),
      shiftNotes: new ShiftNoteService(deps, shifts),
      shiftExport: new ShiftExportService(deps, timesheetSettings),
      timesheetSettings,
      shiftReports: new ShiftReportService(deps, timesheetSettings),
    };
  },
  resolvers: [ShiftResolver, StaffShiftsResolver, ShiftNoteResolver, ShiftExportResolver, ShiftReportResolver],
  restRoutes: timesheetRoutes,
  rawRestRoutes: shiftExportRoutes,
};
