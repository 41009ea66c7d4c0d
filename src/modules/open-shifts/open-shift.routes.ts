import { RestRoute } from "../../rest/route";

const BASE = "/api/organizations/{org}/locations/{locationId}/open-shifts";
const TAG = "Open shifts";
const PREFERENCE_CORE = "id openShiftId workerId worker { id externalId } scheduleShiftId preference status createdAt updatedAt draft { preference status }";
const PREFERENCE = `${PREFERENCE_CORE} isDraft`;
const OPEN_SHIFT_CORE =
  "id tenantId organizationId locationId location { externalId } roleId roleName startDate endDate breaks staffCountRequired requireApproval " +
  "createdAt updatedAt timezone utcOffset isDraft isPublished isFullyClaimed";
const OPEN_SHIFT = `${OPEN_SHIFT_CORE} preferences { ${PREFERENCE} } draftPreferences { ${PREFERENCE_CORE} }`;

const SHIFT_VARS = "$locationId: ID!, $id: ID!";
const SHIFT_ARGS = "locationId: $locationId, id: $id";
const PREF_VARS = `${SHIFT_VARS}, $preferenceId: ID!`;
const PREF_ARGS = `${SHIFT_ARGS}, preferenceId: $preferenceId`;

/** A POST or PATCH on one preference that takes no body and answers the preference. */
const preferenceAction = (method: "POST" | "PATCH", suffix: string, field: string, summary: string): RestRoute => ({
  method,
  path: `${BASE}/{id}/preferences/{preferenceId}${suffix}`,
  summary,
  tag: TAG,
  operation: `mutation ${field}(${PREF_VARS}) { ${field}(${PREF_ARGS}) { ${PREFERENCE} } }`,
});

export const openShiftRoutes: RestRoute[] = [
  {
    method: "GET",
    path: BASE,
    summary: "List a location's open shifts that start between startDate and endDate (dates; paginated: limit, cursor)",
    tag: TAG,
    list: true,
    operation: `query openShifts($locationId: ID!, $startDate: String, $endDate: String, $first: Int, $after: String) { openShifts(locationId: $locationId, startDate: $startDate, endDate: $endDate, first: $first, after: $after) { nodes { ${OPEN_SHIFT} } pageInfo { hasNextPage endCursor } } }`,
  },
  {
    method: "POST",
    path: BASE,
    summary: "Create an open shift (in draft, published with the schedule)",
    tag: TAG,
    status: 201,
    operation: `mutation createOpenShift($locationId: ID!, $input: CreateOpenShiftInput!) { createOpenShift(locationId: $locationId, input: $input) { ${OPEN_SHIFT} } }`,
  },
  {
    method: "POST",
    path: `${BASE}/preferences/bulk-assign`,
    summary: "Accept many preferences, each on its own; answers one result per preference",
    tag: TAG,
    operation: `mutation bulkAssignOpenShiftPreferences($locationId: ID!, $input: BulkAssignInput!) { bulkAssignOpenShiftPreferences(locationId: $locationId, input: $input) { results { preferenceId ok preference { ${PREFERENCE} } error { code message status } } } }`,
  },
  {
    method: "GET",
    path: `${BASE}/{id}`,
    summary: "Read an open shift",
    tag: TAG,
    operation: `query openShift(${SHIFT_VARS}) { openShift(${SHIFT_ARGS}) { ${OPEN_SHIFT} } }`,
  },
  {
    method: "PATCH",
    path: `${BASE}/{id}`,
    summary: "Change an open shift",
    tag: TAG,
    operation: `mutation updateOpenShift(${SHIFT_VARS}, $input: UpdateOpenShiftInput!) { updateOpenShift(${SHIFT_ARGS}, input: $input) { ${OPEN_SHIFT} } }`,
  },
  {
    method: "DELETE",
    path: `${BASE}/{id}`,
    summary: "Remove an open shift (accepted workers keep their schedule entries)",
    tag: TAG,
    status: 204,
    operation: `mutation deleteOpenShift(${SHIFT_VARS}) { deleteOpenShift(${SHIFT_ARGS}) }`,
  },
  {
    method: "POST",
    path: `${BASE}/{id}/claim`,
    summary: "Claim an open shift (body optional: {workerId?, preference?})",
    tag: TAG,
    operation: `mutation claimOpenShift(${SHIFT_VARS}, $input: ClaimOpenShiftInput) { claimOpenShift(${SHIFT_ARGS}, input: $input) { ${PREFERENCE} } }`,
  },
  {
    method: "POST",
    path: `${BASE}/{id}/retract`,
    summary: "Retract one's pending claim (body optional: {workerId?})",
    tag: TAG,
    operation: `mutation retractOpenShiftClaim(${SHIFT_VARS}, $input: WorkerChoiceInput) { retractOpenShiftClaim(${SHIFT_ARGS}, input: $input) { ${PREFERENCE} } }`,
  },
  {
    method: "POST",
    path: `${BASE}/{id}/preferences`,
    summary: "State a preference for an open shift ({preference, workerId?})",
    tag: TAG,
    status: 201,
    operation: `mutation createOpenShiftPreference(${SHIFT_VARS}, $input: CreatePreferenceInput!) { createOpenShiftPreference(${SHIFT_ARGS}, input: $input) { ${PREFERENCE} } }`,
  },
  {
    method: "PATCH",
    path: `${BASE}/{id}/preferences/{preferenceId}`,
    summary: "Change a pending preference ({preference})",
    tag: TAG,
    operation: `mutation updateOpenShiftPreference(${PREF_VARS}, $input: UpdatePreferenceInput!) { updateOpenShiftPreference(${PREF_ARGS}, input: $input) { ${PREFERENCE} } }`,
  },
  preferenceAction("PATCH", "/remove", "removeOpenShiftPreference", "Remove a preference (an accepted worker's schedule entry goes too)"),
  preferenceAction("POST", "/retract", "retractOpenShiftPreference", "Retract a pending preference"),
  preferenceAction("POST", "/assign", "assignOpenShiftPreference", "Accept a pending preference: the worker gets a schedule entry"),
  preferenceAction("POST", "/decline", "declineOpenShiftPreference", "Decline a pending preference"),
];
