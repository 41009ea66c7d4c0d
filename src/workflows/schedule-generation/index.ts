/** The front door of schedule generation. */
export { scheduleGenerationModule } from "./schedule-generation.module";
export type { ScheduleGenerationService } from "./generation.service";
export { solveRoster } from "./solver";
export type { RosterProblem, RosterSolution } from "./solver";
