import { RestRoute } from "../../../rest/route";

const ORG = "/api/organizations/{org}";
const BASE = `${ORG}/staff/{staffId}/availability`;
const TAG = "Availability";
const RULE =
  "id organizationId staffId kind date weekdays startTime endTime templateId weight effectiveFrom effectiveUntil note status decidedBy decidedAt createdBy createdAt updatedAt";
const WINDOW = "kind source sourceId startTime endTime wholeDay weight templateId";
const ONE = "$staffId: ID!, $id: ID!";

export const availabilityRuleRoutes: RestRoute[] = [
  {
    method: "GET",
    path: BASE,
    summary: "List a staff member's availability rules (status)",
    tag: TAG,
    operation: `query availabilityRules($staffId: ID!, $status: AvailabilityStatus) { availabilityRules(staffId: $staffId, status: $status) { ${RULE} } }`,
  },
  {
    method: "POST",
    path: BASE,
    summary: "Add an availability rule (PENDING where a worker's rules need approval)",
    tag: TAG,
    status: 201,
    operation: `mutation createAvailabilityRule($staffId: ID!, $input: CreateAvailabilityRuleInput!) { createAvailabilityRule(staffId: $staffId, input: $input) { ${RULE} } }`,
  },
  {
    method: "GET",
    path: `${BASE}/{id}`,
    summary: "Read an availability rule",
    tag: TAG,
    operation: `query availabilityRule(${ONE}) { availabilityRule(staffId: $staffId, id: $id) { ${RULE} } }`,
  },
  {
    method: "PATCH",
    path: `${BASE}/{id}`,
    summary: "Change an availability rule",
    tag: TAG,
    operation: `mutation updateAvailabilityRule(${ONE}, $input: UpdateAvailabilityRuleInput!) { updateAvailabilityRule(staffId: $staffId, id: $id, input: $input) { ${RULE} } }`,
  },
  {
    method: "DELETE",
    path: `${BASE}/{id}`,
    summary: "Remove an availability rule",
    tag: TAG,
    status: 204,
    operation: `mutation deleteAvailabilityRule(${ONE}) { deleteAvailabilityRule(staffId: $staffId, id: $id) }`,
  },
  {
    method: "POST",
    path: `${BASE}/{id}/approve`,
    summary: "Approve a pending availability rule",
    tag: TAG,
    operation: `mutation approveAvailabilityRule(${ONE}) { approveAvailabilityRule(staffId: $staffId, id: $id) { ${RULE} } }`,
  },
  {
    method: "POST",
    path: `${BASE}/{id}/decline`,
    summary: "Decline a pending availability rule",
    tag: TAG,
    operation: `mutation declineAvailabilityRule(${ONE}) { declineAvailabilityRule(staffId: $staffId, id: $id) { ${RULE} } }`,
  },
  {
    method: "GET",
    path: `${ORG}/availability`,
    summary: "Each staff member's days: unavailable windows and preferences (startDate, endDate, locationId, staffId)",
    tag: TAG,
    operation: `query availability($startDate: String!, $endDate: String!, $locationId: ID, $staffId: ID) { availability(startDate: $startDate, endDate: $endDate, locationId: $locationId, staffId: $staffId) { staffId date available unavailable { ${WINDOW} } preferences { ${WINDOW} } } }`,
  },
  {
    method: "GET",
    path: `${ORG}/availability-settings`,
    summary: "Whether workers' availability rules need approval",
    tag: TAG,
    operation: `query availabilitySettings { availabilitySettings { organizationId availabilityRequiresApproval } }`,
  },
  {
    method: "PATCH",
    path: `${ORG}/availability-settings`,
    summary: "Change whether workers' availability rules need approval",
    tag: TAG,
    operation: `mutation updateAvailabilitySettings($input: UpdateAvailabilitySettingsInput!) { updateAvailabilitySettings(input: $input) { organizationId availabilityRequiresApproval } }`,
  },
];
