/**
 * Every error code the service answers with, declared once with its HTTP status and what it means.
 * REST answers the status with `{error: {code, …}}`; GraphQL puts the code in `extensions.code`.
 * A code not listed here does not compile (`ErrorCode`); docs/rest.md lists this table (a test
 * compares them). A new domain adds its codes here, one line each.
 */
export const ERROR_CODES = {
  BAD_REQUEST: { status: 400, meaning: "The request is not a valid GraphQL operation or readable body" },
  VALIDATION_FAILED: { status: 400, meaning: "An input is malformed or out of range; `details` names each field" },
  QUERY_TOO_DEEP: { status: 400, meaning: "The GraphQL document nests deeper than the limit" },
  QUERY_TOO_COSTLY: { status: 400, meaning: "The GraphQL document would cost more than the limit" },
  QUERY_TOO_MANY_ALIASES: { status: 400, meaning: "The GraphQL document uses more aliases than the limit" },
  QUERY_TOO_LARGE: { status: 400, meaning: "The GraphQL document selects more fields than the limit" },
  QUERY_TOO_REPETITIVE: { status: 400, meaning: "The GraphQL document selects one field too many times in one place" },
  GRAPHQL_PARSE_FAILED: { status: 400, meaning: "The GraphQL document does not parse" },
  UNAUTHENTICATED: { status: 401, meaning: "No valid bearer token" },
  FORBIDDEN: { status: 403, meaning: "The caller's access role does not allow the operation" },
  CLOCK_RULE: {
    status: 403,
    meaning: "A punch breaks a clock rule of the location (geofence, network, device, early window, schedule); `details` names each rule",
  },
  NOT_FOUND: { status: 404, meaning: "No such record in the caller's organization (another organization's too)" },
  METHOD_NOT_ALLOWED: { status: 405, meaning: "The path has no such method; `Allow` lists those it has" },
  CONFLICT: { status: 409, meaning: "The record's state refuses the change (a duplicate, an overlap, a record in use)" },
  ENDPOINT_DISABLED: { status: 409, meaning: "The webhook endpoint is disabled: enable it before recovering its events" },
  OPEN_SHIFT_FULL: { status: 409, meaning: "Every place of the open shift is taken" },
  NOT_ELIGIBLE: { status: 409, meaning: "The worker may not take the shift; `details` gives the reasons" },
  REQUEST_EXPIRED: { status: 409, meaning: "The shift request's entry started, changed or went away before it was decided" },
  SHIFT_LOCKED: { status: 409, meaning: "A day of the shift is locked for payroll" },
  TIMESHEET_APPROVED: { status: 409, meaning: "The shift belongs to an approved timesheet; reopen it first" },
  OPEN_EXCEPTIONS: { status: 409, meaning: "The timesheet cannot be approved while an OPEN critical attendance exception remains" },
  NOT_APPROVED: {
    status: 409,
    meaning: "The pay period cannot close while timesheets are not approved; `details` names them (or close with force and a reason)",
  },
  COMPLIANCE_VIOLATION: { status: 409, meaning: "Publishing would break a labor rule; `details` are the violations" },
  INSUFFICIENT_BALANCE: { status: 409, meaning: "The time-off request needs more hours than the balance has" },
  NOT_IN_POLICY: { status: 409, meaning: "The worker is not included in the time-off policy" },
  POLICY_IN_USE: { status: 409, meaning: "The time-off policy still has requests or balances" },
  ALREADY_CLOCKED_IN: { status: 409, meaning: "The worker is already clocked in" },
  NOT_CLOCKED_IN: { status: 409, meaning: "The worker is not clocked in" },
  ALREADY_ON_BREAK: { status: 409, meaning: "The worker is already on a break" },
  NOT_ON_BREAK: { status: 409, meaning: "The worker is not on a break" },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, meaning: "A request with this Idempotency-Key is still running" },
  IDEMPOTENCY_ANSWER_NOT_KEPT: { status: 409, meaning: "The first answer to this Idempotency-Key was too large to keep; read the result instead" },
  PRECONDITION_FAILED: { status: 412, meaning: "If-Match does not name the record as it is now" },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: "The body exceeds the size limit" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: "The body is not JSON" },
  IDEMPOTENCY_KEY_REUSED: { status: 422, meaning: "The Idempotency-Key was used with a different request" },
  RATE_LIMITED: { status: 429, meaning: "The rate limit is spent; retry after `Retry-After` seconds" },
  TOO_MANY_SUBSCRIPTIONS: { status: 429, meaning: "A WebSocket connection already runs as many subscriptions as it may" },
  INTERNAL_SERVER_ERROR: { status: 500, meaning: "A fault of the service; the log has it, the answer does not" },
  SERVICE_UNAVAILABLE: {
    status: 503,
    meaning: "The database is unreachable, or the service too busy to take the call in time; retry shortly, after `Retry-After` seconds when given",
  },
  STATEMENT_TIMEOUT: { status: 503, meaning: "The request took too long and was cancelled" },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CODES, code);

/** The catalog as the markdown table docs/rest.md carries. */
export function errorCodeTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, { status, meaning }]) => `| \`${code}\` | ${status} | ${meaning} |`);
  return ["| code | status | meaning |", "|---|---|---|", ...rows].join("\n");
}
