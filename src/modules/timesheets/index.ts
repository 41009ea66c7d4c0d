/** The timesheets domain's front door. */
export { timesheetsModule } from "./timesheets.module";
export type { ShiftService, ShiftWriteGuard } from "./shift.service";
export type { DayLockService } from "./day-lock.service";
