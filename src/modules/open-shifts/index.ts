/** The front door of open shifts and workers' preferences for them: the only file other modules import. */
export { openShiftsModule } from "./open-shifts.module";
export { postPublishedOpenShift } from "./open-shift.service";
export type { OpenShiftService } from "./open-shift.service";
export { OpenShift, OpenShiftPreference, PreferenceStatus, PreferenceValue } from "./open-shift.entity";
export type { BulkAssignInput, BulkAssignItem, BulkAssignResult, ClaimOpenShiftInput } from "./open-shift.inputs";
