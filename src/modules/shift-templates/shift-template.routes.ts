import { RestRoute } from "../../rest/route";

const BASE = "/api/organizations/{org}/locations/{locationId}/shift-templates";
const TAG = "Shift templates";
export const SHIFT_TEMPLATE_FIELDS =
  "id organizationId locationId roleId name startTime endTime durationMinutes breaks { typeId startTime } cannotBeFollowedBy createdAt updatedAt";
const IDS = "$locationId: ID!, $id: ID!";

export const shiftTemplateRoutes: RestRoute[] = [
  {
    method: "GET",
    path: BASE,
    summary: "List a location's shift templates by name (paginated: limit, cursor)",
    tag: TAG,
    list: true,
    operation: `query shiftTemplates($locationId: ID!, $first: Int, $after: String) { shiftTemplates(locationId: $locationId, first: $first, after: $after) { nodes { ${SHIFT_TEMPLATE_FIELDS} } pageInfo { hasNextPage endCursor } } }`,
  },
  {
    method: "POST",
    path: BASE,
    summary: "Create a shift template",
    tag: TAG,
    status: 201,
    operation: `mutation createShiftTemplate($locationId: ID!, $input: CreateShiftTemplateInput!) { createShiftTemplate(locationId: $locationId, input: $input) { ${SHIFT_TEMPLATE_FIELDS} } }`,
  },
  {
    method: "GET",
    path: `${BASE}/{id}`,
    summary: "Read a shift template",
    tag: TAG,
    operation: `query shiftTemplate(${IDS}) { shiftTemplate(locationId: $locationId, id: $id) { ${SHIFT_TEMPLATE_FIELDS} } }`,
  },
  {
    method: "PATCH",
    path: `${BASE}/{id}`,
    summary: "Change a shift template",
    tag: TAG,
    operation: `mutation updateShiftTemplate(${IDS}, $input: UpdateShiftTemplateInput!) { updateShiftTemplate(locationId: $locationId, id: $id, input: $input) { ${SHIFT_TEMPLATE_FIELDS} } }`,
  },
  {
    method: "DELETE",
    path: `${BASE}/{id}`,
    summary:
      "Delete a shift template (entries and drafts made from it keep their times; its coverage requirements and the availability preferences naming it go)",
    tag: TAG,
    status: 204,
    operation: `mutation deleteShiftTemplate(${IDS}) { deleteShiftTemplate(locationId: $locationId, id: $id) }`,
  },
];
