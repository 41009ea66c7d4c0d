import { ELIGIBILITY_FIELDS } from "../../modules/availability";
import { RestRoute } from "../../rest/route";

const BASE = "/api/organizations/{org}/shift-requests";
const TAG = "Shift requests";
const REQUEST = `id organizationId locationId type status requesterStaffId entryId recipientStaffId recipientEntryId note openShiftId decidedBy decidedAt acknowledgedReason createdAt updatedAt preview { people { entryId ${ELIGIBILITY_FIELDS} } predictabilityPayExemption }`;

const transition = (verb: string, summary: string, withInput = false): RestRoute => ({
  method: "POST",
  path: `${BASE}/{id}/${verb}`,
  summary,
  tag: TAG,
  operation: withInput
    ? `mutation ${verb}ShiftRequest($id: ID!, $input: ApproveShiftRequestInput) { ${verb}ShiftRequest(id: $id, input: $input) { ${REQUEST} } }`
    : `mutation ${verb}ShiftRequest($id: ID!) { ${verb}ShiftRequest(id: $id) { ${REQUEST} } }`,
});

export const shiftRequestRoutes: RestRoute[] = [
  {
    method: "GET",
    path: BASE,
    summary: "List shift requests (status, type), newest first: a worker's own and the open covers they may take",
    tag: TAG,
    operation: `query shiftRequests($status: ShiftRequestStatus, $type: ShiftRequestType) { shiftRequests(status: $status, type: $type) { ${REQUEST} } }`,
  },
  {
    method: "POST",
    path: BASE,
    summary: "Offer a published entry: SWAP, COVER (named or open) or DROP",
    tag: TAG,
    status: 201,
    operation: `mutation createShiftRequest($input: CreateShiftRequestInput!) { createShiftRequest(input: $input) { ${REQUEST} } }`,
  },
  {
    method: "GET",
    path: `${BASE}/{id}`,
    summary: "Read a shift request with its preview",
    tag: TAG,
    operation: `query shiftRequest($id: ID!) { shiftRequest(id: $id) { ${REQUEST} } }`,
  },
  transition("accept", "Take the request (an open cover: the first eligible worker wins)"),
  transition("decline", "Say no to a request addressed to one"),
  transition("approve", "Approve: re-check and move the entries in one transaction (acknowledge and reason for compliance errors)", true),
  transition("reject", "Reject a request"),
  transition("cancel", "Withdraw a request"),
  {
    method: "GET",
    path: "/api/organizations/{org}/locations/{locationId}/shift-request-settings",
    summary: "Whether the location's shift requests need a manager's approval",
    tag: TAG,
    operation: `query shiftRequestSettings($locationId: ID!) { shiftRequestSettings(locationId: $locationId) { locationId shiftRequestsRequireApproval } }`,
  },
  {
    method: "PATCH",
    path: "/api/organizations/{org}/locations/{locationId}/shift-request-settings",
    summary: "Change whether the location's shift requests need a manager's approval",
    tag: TAG,
    operation: `mutation updateShiftRequestSettings($locationId: ID!, $input: UpdateShiftRequestSettingsInput!) { updateShiftRequestSettings(locationId: $locationId, input: $input) { locationId shiftRequestsRequireApproval } }`,
  },
];
