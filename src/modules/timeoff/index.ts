/** The time-off domain's front door: what other modules may use of it. */
export { selectApprovedTimeOff } from "./timeoff.store";
