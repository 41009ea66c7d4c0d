/** The timesheets module's front door: what other modules may import from it. */
export { endedShiftMinutes } from "./shift-minutes";
