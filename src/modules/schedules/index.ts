/** The front door of published schedule entries and drafts: the only file other modules import. */
export { PlannedRecord, dayBounds, inZone, startingWithin } from "./planned-time";
export { MAX_PLANNED_MINUTES, assertNoApprovedTimeOff, breakTypesOf, requireRole } from "./schedule-plans";
export { ScheduleEntry } from "./schedule.entity";
export { removeEntries } from "./schedule.service";
export { insertEntry, reassignEntries } from "./schedule.store";
export { schedulesModule } from "./schedules.module";
