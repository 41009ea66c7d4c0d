import { RestRoute } from "../../rest/route";

const PATH = "/api/organizations/{org}/locations/{locationId}/coverage";
const TAG = "Coverage";
const LINE = "date templateId count underWeight overWeight assigned missing";

export const coverageRoutes: RestRoute[] = [
  {
    method: "GET",
    path: PATH,
    summary: "A location's coverage requirements of a date range (startDate, endDate), each with assigned (published entries and drafts) and missing",
    tag: TAG,
    operation: `query coverage($locationId: ID!, $startDate: String, $endDate: String) { coverage(locationId: $locationId, startDate: $startDate, endDate: $endDate) { ${LINE} } }`,
  },
  {
    method: "PUT",
    path: PATH,
    summary: "Replace the coverage requirements of a date range; answers them as GET does",
    tag: TAG,
    operation: `mutation replaceCoverage($locationId: ID!, $input: ReplaceCoverageInput!) { replaceCoverage(locationId: $locationId, input: $input) { ${LINE} } }`,
  },
];
