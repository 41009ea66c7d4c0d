import { RestRoute } from "../../rest/route";
import { NUMERIC_FIGURES } from "./compliance-presets";

const TAG = "Compliance";
const PROFILE = `locationId preset overridden seventhDayRule updatedAt ${Object.keys(NUMERIC_FIGURES).join(" ")}`;
/** A violation's fields, for every answer that lists them. */
export const VIOLATION_FIELDS = "ruleId severity workerId entryIds message citation premium { hours amount }";

export const complianceRoutes: RestRoute[] = [
  {
    method: "GET",
    path: "/api/organizations/{org}/locations/{id}/compliance",
    summary: "Read a location's labor rules: its preset and every figure in force",
    tag: TAG,
    operation: `query complianceProfile($id: ID!) { complianceProfile(locationId: $id) { ${PROFILE} } }`,
  },
  {
    method: "PATCH",
    path: "/api/organizations/{org}/locations/{id}/compliance",
    summary: "Change a location's preset and the figures it overrides (null switches a rule off; resetFigures go back to the preset)",
    tag: TAG,
    operation: `mutation updateComplianceProfile($id: ID!, $input: UpdateComplianceProfileInput!) { updateComplianceProfile(locationId: $id, input: $input) { ${PROFILE} } }`,
  },
  {
    method: "POST",
    path: "/api/organizations/{org}/locations/{locationId}/schedules/compliance-check",
    summary: "Check the drafts and published entries of a date range against the location's labor rules",
    tag: TAG,
    operation: `query complianceCheck($locationId: ID!, $input: ComplianceCheckInput!) { complianceCheck(locationId: $locationId, input: $input) { startDate endDate violations { ${VIOLATION_FIELDS} } } }`,
  },
];
