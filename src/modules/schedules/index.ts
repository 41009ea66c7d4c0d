/** The front door of schedules: what other modules use of entries and drafts. */
export { schedulesModule } from "./schedules.module";
export { DraftAction, ScheduleDraft, ScheduleEntry } from "./schedule.entity";
export type { ScheduleService } from "./schedule.service";
export type { ScheduleDraftService } from "./schedule-drafts.service";
export { countByDayAndTemplate, deleteDraftsStartingWithin, insertGeneratedDrafts } from "./schedule.store";
export type { BreakPlan, GeneratedDraft } from "./schedule.store";
export { breakTypesOf } from "./schedule-plans";
