import { RestRoute } from "../../../rest/route";

const FINDING = "code message sourceId entryIds citation hours amount";
/** One staff member's eligibility, as every answer that carries it selects it. */
export const ELIGIBILITY_FIELDS = `staffId eligible reasons { ${FINDING} } warnings { ${FINDING} } premiums { ruleId hours amount citation }`;
const LOCATION = "/api/organizations/{org}/locations/{locationId}";
const TAG = "Availability";

export const eligibilityRoutes: RestRoute[] = [
  {
    method: "POST",
    path: "/api/organizations/{org}/eligibility",
    summary: "Who can take a shift (time range and role at a location), why not, and what it would cost",
    tag: TAG,
    operation: `query eligibility($input: EligibilityInput!) { eligibility(input: $input) { ${ELIGIBILITY_FIELDS} } }`,
  },
  {
    method: "GET",
    path: `${LOCATION}/open-shifts/{id}/eligible-staff`,
    summary: "Who can take an open shift, why not, and what it would cost",
    tag: TAG,
    operation: `query openShiftEligibleStaff($locationId: ID!, $id: ID!) { openShiftEligibleStaff(locationId: $locationId, id: $id) { ${ELIGIBILITY_FIELDS} } }`,
  },
  {
    method: "GET",
    path: `${LOCATION}/schedules/{id}/eligible-staff`,
    summary: "Who could take a published entry instead, why not, and what it would cost",
    tag: TAG,
    operation: `query scheduleEntryEligibleStaff($locationId: ID!, $id: ID!) { scheduleEntryEligibleStaff(locationId: $locationId, id: $id) { ${ELIGIBILITY_FIELDS} } }`,
  },
];
