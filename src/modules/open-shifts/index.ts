/** The front door of open shifts and workers' preferences for them: the only file other modules import. */
export { openShiftsModule } from "./open-shifts.module";
export type { OpenShiftService } from "./open-shift.service";
export { insertPublishedOpenShift } from "./open-shift.store";
