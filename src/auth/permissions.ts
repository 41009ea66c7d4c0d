/**
 * Every permission an access role can hold. A `:self` permission lets a staff member act on their
 * own records only; the plain one acts on everyone's.
 */
export const PERMISSIONS = {
  "organization:read": "Read the organization",
  "organization:write": "Change the organization",
  "locations:read": "List and read locations",
  "locations:write": "Create, change and delete locations",
  "roles:read": "List and read roles",
  "roles:write": "Create, change and delete roles",
  "staff:read": "List and read staff members",
  "staff:write": "Create, change and delete staff members",
  "access:manage": "Manage access roles and API keys",
  "breaks:read": "Read break types",
  "breaks:write": "Create, change and delete break types",
  "timeclock:self": "Clock oneself in and out and take breaks",
  "timeclock:manage": "Clock anyone in and out, with corrected times",
  "timesheets:self": "Read one's own shifts",
  "timesheets:read": "Read everyone's shifts, exports and reports",
  "timesheets:write": "Create, change and delete shifts",
  "timesheets:lock": "Lock and unlock days for payroll",
  "timeoff:self": "File, change and withdraw one's own time-off requests; read one's own balances",
  "timeoff:read": "Read everyone's time-off requests and balances",
  "timeoff:manage": "Manage time-off policies, balances and settings",
  "timeoff:approve": "Approve and decline time-off requests",
  "schedules:self": "Read one's own published schedule and published open shifts",
  "schedules:read": "Read every schedule entry, draft and open shift",
  "schedules:write": "Build, publish and assign schedules and open shifts",
  "openshifts:claim": "Claim open shifts and state preferences",
  "availability:self": "State one's own availability and preferences; read one's own",
  "availability:read": "Read everyone's availability and preferences",
  "availability:manage": "Write and approve anyone's availability and set whether workers' rules need approval",
  "calendar:self": "Make and revoke one's own calendar feed",
  "calendar:manage": "Make and revoke the calendar feeds of anyone and of locations",
  "shiftrequests:self": "Offer one's own shifts (swap, cover, drop), answer requests addressed to one, take open covers one is eligible for",
  "shiftrequests:manage": "Read every shift request, approve, reject and cancel them, and set whether they need approval",
  "audit:read": "Read the audit trail",
  "events:read": "Read the event list and subscribe to every event",
  "webhooks:manage": "Manage webhook endpoints and their deliveries",
  "attendance:self": "Read one's own attendance exceptions and the attendance policy",
  "attendance:read": "Read clock rules and everyone's attendance exceptions",
  "attendance:manage": "Set clock rules, devices and the attendance policy; excuse and resolve exceptions",
  "payperiods:self": "Read and submit one's own timesheet of a pay period",
  "payperiods:read": "Read the pay schedule, pay periods and everyone's timesheets in them",
  "payperiods:manage": "Set the pay schedule, approve and reopen timesheets, close pay periods",
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

export function isPermission(value: string): value is Permission {
  return Object.prototype.hasOwnProperty.call(PERMISSIONS, value);
}

/** The access roles every organization starts with. */
export const SYSTEM_ACCESS_ROLES: { name: string; permissions: Permission[] }[] = [
  { name: "Admin", permissions: ALL_PERMISSIONS },
  {
    name: "Manager",
    permissions: ALL_PERMISSIONS.filter((p) => p !== "access:manage" && p !== "organization:write"),
  },
  {
    name: "Worker",
    permissions: [
      "organization:read",
      "locations:read",
      "roles:read",
      "breaks:read",
      "timeclock:self",
      "timesheets:self",
      "timeoff:self",
      "schedules:self",
      "openshifts:claim",
      "attendance:self",
      "payperiods:self",
      "availability:self",
      "calendar:self",
      "shiftrequests:self",
    ],
  },
];
