/** The front door of worked shifts, their breaks, notes, pay, reports and exports: the only file other modules import. */
export { ShiftService } from "./shift.service";
export type { ShiftWriteGuard } from "./shift.service";
export type { DayLockService } from "./day-lock.service";
export { BreakRow, ShiftRow, endBreak, endShift, presentShift, selectOpenShift } from "./shift.store";
export { Shift, ShiftBreak } from "./shift.types";
export { BREAK_FIELDS, SHIFT_FIELDS } from "./timesheet.routes";
export { timesheetsModule } from "./timesheets.module";
