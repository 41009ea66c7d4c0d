import { RestRoute } from "../../rest/route";

const TAG = "Pay periods";
const ORG = "/api/organizations/{org}";
const SCHEDULE = "frequency anchorDate updatedAt";
const PERIOD = "startDate endDate closed closedAt forced reason notApprovedStaffIds";
const SHEET = "staffId startDate endDate status shiftCount openShiftCount openCriticalExceptions submittedAt approvedAt approvedBy";

const timesheetAction = (action: "submit" | "approve" | "reopen", summary: string): RestRoute => ({
  method: "POST",
  path: `${ORG}/pay-periods/{startDate}/timesheets/{staffId}/${action}`,
  summary,
  tag: TAG,
  operation: `mutation ${action}Timesheet($startDate: String!, $staffId: ID!) { ${action}Timesheet(startDate: $startDate, staffId: $staffId) { ${SHEET} } }`,
});

export const payPeriodRoutes: RestRoute[] = [
  {
    method: "GET",
    path: `${ORG}/pay-schedule`,
    summary: "How the organization's pay periods run",
    tag: TAG,
    operation: `query paySchedule { paySchedule { ${SCHEDULE} } }`,
  },
  {
    method: "PUT",
    path: `${ORG}/pay-schedule`,
    summary: "Set the pay schedule: WEEKLY or BIWEEKLY from an anchor date, SEMIMONTHLY or MONTHLY",
    tag: TAG,
    operation: `mutation setPaySchedule($input: PayScheduleInput!) { setPaySchedule(input: $input) { ${SCHEDULE} } }`,
  },
  {
    method: "GET",
    path: `${ORG}/pay-periods`,
    summary: "The pay periods overlapping from–to, each with whether it is closed",
    tag: TAG,
    operation: `query payPeriods($from: String!, $to: String!) { payPeriods(from: $from, to: $to) { ${PERIOD} } }`,
  },
  {
    method: "GET",
    path: `${ORG}/pay-periods/{startDate}/timesheets`,
    summary: "One timesheet per staff member for the period (a worker: their own)",
    tag: TAG,
    operation: `query periodTimesheets($startDate: String!) { periodTimesheets(startDate: $startDate) { ${SHEET} } }`,
  },
  timesheetAction("submit", "Submit a timesheet of the period (the worker attests it, breaks included)"),
  timesheetAction("approve", "Approve a timesheet: refused (409) while an open shift or an OPEN critical exception remains; its shifts freeze"),
  timesheetAction("reopen", "Reopen a submitted or approved timesheet"),
  {
    method: "POST",
    path: `${ORG}/pay-periods/{startDate}/close`,
    summary: "Close the period: lock its days at every location (409 naming who is not approved, unless forced with a reason)",
    tag: TAG,
    operation: `mutation closePayPeriod($startDate: String!, $input: ClosePayPeriodInput) { closePayPeriod(startDate: $startDate, input: $input) { ${PERIOD} } }`,
  },
];
