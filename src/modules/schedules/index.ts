/** The front door of published schedule entries and drafts: the only file other modules import. */
export { PlannedRecord, dayBounds, inZone, startingWithin } from "./planned-time";
export { MAX_PLANNED_MINUTES, assertNoApprovedTimeOff, breakTypesOf, requireRole } from "./schedule-plans";
export { ScheduleEntry } from "./schedule.entity";
export type { AppliedDrafts, DraftsToPublish, ScheduleDraftService } from "./schedule-drafts.service";
export type { PublishResult, PublishScheduleInput } from "./schedule.inputs";
export { removeEntries } from "./schedule.service";
export type { ScheduleService } from "./schedule.service";
export { reassignEntries } from "./schedule.store";
export { schedulesModule } from "./schedules.module";
export { DraftAction, ScheduleDraft } from "./schedule.entity";
export { countByDayAndTemplate, deleteDraftsStartingWithin, insertGeneratedDrafts } from "./schedule.store";
export type { BreakPlan, GeneratedDraft } from "./schedule.store";
