/** The roster search: pure code over plain data, run in a child process by the generation service and directly by the benchmark. */
export { solveRoster } from "./roster-search";
export type { RosterSolution, SearchOptions, SearchProgress } from "./roster-search";
export { BUSY, OFF } from "./roster-problem";
export type { RosterProblem, RosterPerson, RosterLimits, RosterTemplate, CoverNeed, Preference, HardViolation, ObjectiveParts } from "./roster-problem";
