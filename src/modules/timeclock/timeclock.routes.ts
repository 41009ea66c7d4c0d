import { RestRoute } from "../../rest/route";
import { BREAK_FIELDS, SHIFT_FIELDS } from "../timesheets";

const TAG = "Time clock";

export const timeClockRoutes: RestRoute[] = [
  {
    method: "GET",
    path: "/api/time-tracking/shift-state",
    summary: "A worker's clock state (CLOCKED_OUT, CLOCKED_IN, ON_BREAK) with the open shift and break",
    tag: TAG,
    operation: `query shiftState($workerId: ID) { shiftState(workerId: $workerId) { workerId state shift { ${SHIFT_FIELDS} } currentBreak { ${BREAK_FIELDS} } } }`,
  },
  {
    method: "POST",
    path: "/api/time-tracking/clock-in",
    summary: "Clock in: opens a shift",
    tag: TAG,
    status: 201,
    operation: `mutation clockIn($input: ClockInInput!) { clockIn(input: $input) { ${SHIFT_FIELDS} } }`,
  },
  {
    method: "POST",
    path: "/api/time-tracking/clock-out",
    summary: "Clock out: closes the open shift and any running break",
    tag: TAG,
    operation: `mutation clockOut($input: ClockOutInput!) { clockOut(input: $input) { ${SHIFT_FIELDS} } }`,
  },
  {
    method: "POST",
    path: "/api/time-tracking/breaks/start",
    summary: "Start a break on the open shift",
    tag: TAG,
    operation: `mutation startBreak($input: BreakStartInput!) { startBreak(input: $input) { ${SHIFT_FIELDS} } }`,
  },
  {
    method: "POST",
    path: "/api/time-tracking/breaks/end",
    summary: "End the running break",
    tag: TAG,
    operation: `mutation endBreak($input: ClockOutInput!) { endBreak(input: $input) { ${SHIFT_FIELDS} } }`,
  },
];
