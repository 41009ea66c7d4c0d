import { RestRoute } from "../../rest/route";

export const BREAK_FIELDS = "startTime endTime typeId paid name mandatory frequencyMinutes durationInSettingsMinutes";
export const SHIFT_FIELDS = `id employeeId locationId roleId startTime endTime breaks { ${BREAK_FIELDS} } hourlyWage totalPaidBreaks totalUnpaidBreaks duration payableDuration utcOffset utcStartTime utcEndTime locked active createdAt updatedAt deletedAt`;
const NOTE_FIELDS = "id shiftId authorId text createdAt updatedAt";
const REPORT_FIELDS =
  "shifts totalHours regularHours overtimeHours doubleTimeHours paidBreakMinutes unpaidBreakMinutes laborCost overtimePremium doubleTimePremium mealPremiums mealPremium restGapPremium predictabilityPay totalCost mandatoryBreakViolations";
const SETTINGS_FIELDS = "weeklyOvertimeHours dailyOvertimeHours overtimeRate weekStart updatedAt";
const TAG = "Timesheets";

/** Fixed paths come before /api/timesheets/{id}, which would otherwise take "locks" as an id. */
export const timesheetRoutes: RestRoute[] = [
  {
    method: "GET",
    path: "/api/timesheets/reports",
    summary: "Hours and labor cost of closed shifts by day, location or role",
    tag: TAG,
    operation: `query shiftReport($startDate: String, $endDate: String, $payPeriod: String, $groupBy: ReportGrouping = day, $locationId: ID) {
      shiftReport(startDate: $startDate, endDate: $endDate, payPeriod: $payPeriod, groupBy: $groupBy, locationId: $locationId) {
        groupBy groups { key label ${REPORT_FIELDS} } totals { ${REPORT_FIELDS} } } }`,
  },
  {
    method: "GET",
    path: "/api/timesheets/reports/employees",
    summary: "Per employee: regular and overtime hours, breaks, pay, shifts and mandatory-break violations",
    tag: TAG,
    operation: `query employeeShiftReports($startDate: String, $endDate: String, $payPeriod: String, $locationId: ID) {
      employeeShiftReports(startDate: $startDate, endDate: $endDate, payPeriod: $payPeriod, locationId: $locationId) {
        employeeId employee externalEmployeeId payrollId ${REPORT_FIELDS} } }`,
  },
  {
    method: "GET",
    path: "/api/timesheets/settings",
    summary: "The organization's overtime settings",
    tag: TAG,
    operation: `query timesheetSettings { timesheetSettings { ${SETTINGS_FIELDS} } }`,
  },
  {
    method: "PATCH",
    path: "/api/timesheets/settings",
    summary: "Change the overtime settings",
    tag: TAG,
    operation: `mutation updateTimesheetSettings($input: UpdateTimesheetSettingsInput!) { updateTimesheetSettings(input: $input) { ${SETTINGS_FIELDS} } }`,
  },
  {
    method: "POST",
    path: "/api/timesheets/locks",
    summary: "Lock a day of a location for payroll: its shifts can no longer be changed or deleted",
    tag: TAG,
    operation: "mutation lockDay($input: DayLockInput!) { lockDay(input: $input) { locationId date locked } }",
  },
  {
    method: "DELETE",
    path: "/api/timesheets/locks",
    summary: "Unlock a day of a location",
    tag: TAG,
    operation: "mutation unlockDay($input: DayLockInput!) { unlockDay(input: $input) { locationId date locked } }",
  },
  {
    method: "GET",
    path: "/api/timesheets",
    summary: "List shifts starting on the local days startDate…endDate (a worker gets their own)",
    tag: TAG,
    operation: `query timesheets($startDate: String!, $endDate: String!, $locationId: ID, $employeeId: ID) {
      timesheets(startDate: $startDate, endDate: $endDate, locationId: $locationId, employeeId: $employeeId) {
        shifts { ${SHIFT_FIELDS} } lockedDays totals { duration totalPaidBreaks totalUnpaidBreaks } } }`,
  },
  {
    method: "POST",
    path: "/api/timesheets",
    summary: "Create a shift",
    tag: TAG,
    status: 201,
    operation: `mutation createShift($input: CreateShiftInput!) { createShift(input: $input) { ${SHIFT_FIELDS} } }`,
  },
  {
    method: "DELETE",
    path: "/api/timesheets",
    summary: "Delete every shift starting on a local day (optionally of one location); nothing when one is locked",
    tag: TAG,
    operation: "mutation deleteShiftsOnDate($date: String!, $locationId: ID) { deleteShiftsOnDate(date: $date, locationId: $locationId) { deleted } }",
  },
  {
    method: "GET",
    path: "/api/timesheets/{id}",
    summary: "Read a shift",
    tag: TAG,
    operation: `query shift($id: ID!) { shift(id: $id) { ${SHIFT_FIELDS} } }`,
  },
  {
    method: "PATCH",
    path: "/api/timesheets/{id}",
    summary: "Change a shift: any of startTime, endTime, roleId, hourlyWage, breaks (breaks replace all)",
    tag: TAG,
    operation: `mutation updateShift($id: ID!, $input: UpdateShiftInput!) { updateShift(id: $id, input: $input) { ${SHIFT_FIELDS} } }`,
  },
  {
    method: "DELETE",
    path: "/api/timesheets/{id}",
    summary: "Delete a shift (soft)",
    tag: TAG,
    status: 204,
    operation: "mutation deleteShift($id: ID!) { deleteShift(id: $id) }",
  },
  {
    method: "GET",
    path: "/api/timesheets/{id}/notes",
    summary: "List the notes of a shift",
    tag: TAG,
    operation: `query shiftNotes($id: ID!) { shiftNotes(shiftId: $id) { ${NOTE_FIELDS} } }`,
  },
  {
    method: "POST",
    path: "/api/timesheets/{id}/notes",
    summary: "Add a note to a shift",
    tag: TAG,
    status: 201,
    operation: `mutation addShiftNote($id: ID!, $input: ShiftNoteInput!) { addShiftNote(shiftId: $id, input: $input) { ${NOTE_FIELDS} } }`,
  },
  {
    method: "PATCH",
    path: "/api/timesheets/{id}/notes/{noteId}",
    summary: "Change one's own note",
    tag: TAG,
    operation: `mutation updateShiftNote($id: ID!, $noteId: ID!, $input: ShiftNoteInput!) { updateShiftNote(shiftId: $id, id: $noteId, input: $input) { ${NOTE_FIELDS} } }`,
  },
  {
    method: "DELETE",
    path: "/api/timesheets/{id}/notes/{noteId}",
    summary: "Delete a note (one's own; managers any)",
    tag: TAG,
    status: 204,
    operation: "mutation deleteShiftNote($id: ID!, $noteId: ID!) { deleteShiftNote(shiftId: $id, id: $noteId) }",
  },
];
