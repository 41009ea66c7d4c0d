import { RestRoute } from "../../rest/route";

const FIELDS = "id name locationId durationMinutes frequencyMinutes paid mandatory active enabled createdAt updatedAt deletedAt";
const BASE = "/api/organizations/{org}/locations/{id}/breaks";

export const breakTypeRoutes: RestRoute[] = [
  {
    method: "POST",
    path: BASE,
    summary: "Create a break type for a location",
    tag: "Breaks",
    status: 201,
    inputFromPath: { id: "locationId" },
    operation: `mutation createBreakType($input: CreateBreakTypeInput!) { createBreakType(input: $input) { ${FIELDS} } }`,
  },
  {
    method: "GET",
    path: BASE,
    summary: "List the break types of a location",
    tag: "Breaks",
    operation: `query breakTypes($id: ID!, $includeDeleted: Boolean) { breakTypes(locationId: $id, includeDeleted: $includeDeleted) { ${FIELDS} } }`,
  },
  {
    method: "GET",
    path: `${BASE}/{breakId}`,
    summary: "Read a break type (deleted ones too)",
    tag: "Breaks",
    operation: `query breakType($id: ID!, $breakId: ID!) { breakType(locationId: $id, id: $breakId) { ${FIELDS} } }`,
  },
  {
    method: "PATCH",
    path: `${BASE}/{breakId}`,
    summary: "Change a break type",
    tag: "Breaks",
    operation: `mutation updateBreakType($id: ID!, $breakId: ID!, $input: UpdateBreakTypeInput!) { updateBreakType(locationId: $id, id: $breakId, input: $input) { ${FIELDS} } }`,
  },
  {
    method: "DELETE",
    path: `${BASE}/{breakId}`,
    summary: "Delete a break type (soft: it becomes inactive)",
    tag: "Breaks",
    status: 204,
    operation: `mutation deleteBreakType($id: ID!, $breakId: ID!) { deleteBreakType(locationId: $id, id: $breakId) }`,
  },
];
