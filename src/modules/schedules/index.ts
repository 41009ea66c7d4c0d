/** The front door of published schedule entries and drafts: the only file other modules import. */
export { PlannedRecord, dayBounds, inZone, startingWithin } from "./planned-time";
export { MAX_PLANNED_MINUTES, assertNoApprovedTimeOff, breakTypesOf, requireRole } from "./schedule-plans";
export { ScheduleEntry } from "./schedule.entity";
export type { AppliedDrafts, DraftsToPublish, GeneratedDraft, PlannedShiftRow, ScheduleDraftService } from "./schedule-drafts.service";
export { countByDayAndTemplate, deleteDraftsStartingWithin, insertGeneratedDrafts, plannedShiftsAround } from "./schedule-drafts.service";
export type { PublishResult, PublishScheduleInput } from "./schedule.inputs";
export { reassignEntries, removeEntries } from "./schedule.service";
export type { ScheduleService } from "./schedule.service";
export { schedulesModule } from "./schedules.module";
export { DraftAction, ScheduleDraft } from "./schedule.entity";
export type { BreakPlan } from "./schedule-plans";
