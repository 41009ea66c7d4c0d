/** The front door of worked shifts, their breaks, notes, pay, reports and exports: the only file other modules import. */
export { ShiftService } from "./shifts/shift.service";
export type { ShiftRow, ShiftWriteGuard } from "./shifts/shift.service";
export type { DayLockService } from "./day-locks/day-lock.service";
export { Shift, ShiftBreak } from "./shifts/shift.graphql";
export { BREAK_FIELDS, SHIFT_FIELDS } from "./timesheet.routes";
export { timesheetsModule } from "./timesheets.module";
