import { RestRoute } from "../../rest/route";

const TAG = "Attendance";
const ORG = "/api/organizations/{org}";
const RULES = "locationId geofence { latitude longitude radiusMeters } allowedNetworks requireDevice earlyClockInMinutes requireSchedule enforcement updatedAt";
const DEVICE = "id locationId name createdAt revokedAt";
const POLICY = "lateGraceMinutes earlyOutGraceMinutes noShowAfterMinutes missedClockOutAfterMinutes longShiftHours enabled updatedAt";
const EXCEPTION =
  "id kind severity staffId locationId entryId shiftId date minutes message detectedAt status resolution { note resolvedBy resolvedAt } updatedAt";

export const attendanceRoutes: RestRoute[] = [
  {
    method: "GET",
    path: `${ORG}/locations/{locationId}/clock-rules`,
    summary: "A location's clock-in rules: geofence, allowed networks, devices, early window, schedule, enforcement",
    tag: TAG,
    operation: `query clockRules($locationId: ID!) { clockRules(locationId: $locationId) { ${RULES} } }`,
  },
  {
    method: "PUT",
    path: `${ORG}/locations/{locationId}/clock-rules`,
    summary: "Replace a location's clock-in rules",
    tag: TAG,
    operation: `mutation setClockRules($locationId: ID!, $input: ClockRulesInput!) { setClockRules(locationId: $locationId, input: $input) { ${RULES} } }`,
  },
  {
    method: "GET",
    path: `${ORG}/locations/{locationId}/clock-devices`,
    summary: "A location's registered time-clock devices (never their tokens)",
    tag: TAG,
    operation: `query clockDevices($locationId: ID!) { clockDevices(locationId: $locationId) { ${DEVICE} } }`,
  },
  {
    method: "POST",
    path: `${ORG}/locations/{locationId}/clock-devices`,
    summary: "Register a device: its token (for X-Clock-Device) is in this answer only",
    tag: TAG,
    status: 201,
    operation: `mutation registerClockDevice($locationId: ID!, $input: RegisterClockDeviceInput!) { registerClockDevice(locationId: $locationId, input: $input) { device { ${DEVICE} } token } }`,
  },
  {
    method: "DELETE",
    path: `${ORG}/locations/{locationId}/clock-devices/{id}`,
    summary: "Revoke a device: its token no longer punches",
    tag: TAG,
    status: 204,
    operation: `mutation revokeClockDevice($locationId: ID!, $id: ID!) { revokeClockDevice(locationId: $locationId, id: $id) }`,
  },
  {
    method: "GET",
    path: `${ORG}/attendance-policy`,
    summary: "The attendance policy: grace minutes, no-show and missed clock-out thresholds, long shift",
    tag: TAG,
    operation: `query attendancePolicy { attendancePolicy { ${POLICY} } }`,
  },
  {
    method: "PUT",
    path: `${ORG}/attendance-policy`,
    summary: "Replace the attendance policy (exceptions are recorded once there is one)",
    tag: TAG,
    operation: `mutation setAttendancePolicy($input: AttendancePolicyInput!) { setAttendancePolicy(input: $input) { ${POLICY} } }`,
  },
  {
    method: "GET",
    path: `${ORG}/attendance-exceptions`,
    summary: "Attendance exceptions of a date range, by kind, status, staff member and location (a worker: their own; paginated)",
    tag: TAG,
    list: true,
    operation: `query attendanceExceptions($first: Int, $after: String, $startDate: String!, $endDate: String!, $kind: AttendanceExceptionKind, $status: AttendanceExceptionStatus, $staffId: ID, $locationId: ID) {
      attendanceExceptions(first: $first, after: $after, startDate: $startDate, endDate: $endDate, kind: $kind, status: $status, staffId: $staffId, locationId: $locationId) {
        nodes { ${EXCEPTION} }
        pageInfo { hasNextPage endCursor }
      }
    }`,
  },
  {
    method: "GET",
    path: `${ORG}/attendance-exceptions/{id}`,
    summary: "One attendance exception",
    tag: TAG,
    operation: `query attendanceException($id: ID!) { attendanceException(id: $id) { ${EXCEPTION} } }`,
  },
  {
    method: "PATCH",
    path: `${ORG}/attendance-exceptions/{id}`,
    summary: "Excuse or resolve an exception with a note",
    tag: TAG,
    operation: `mutation resolveAttendanceException($id: ID!, $input: ResolveAttendanceExceptionInput!) { resolveAttendanceException(id: $id, input: $input) { ${EXCEPTION} } }`,
  },
];
