import { RestRoute } from "../../rest/route";

export const auditRoutes: RestRoute[] = [
  {
    method: "GET",
    path: "/api/organizations/{org}/audit-events",
    summary: "The audit trail, newest first: filter by resourceType and resourceId, actorStaffId or actorApiKeyId, from and to (paginated)",
    tag: "Audit",
    list: true,
    operation: `query auditEvents($first: Int, $after: String, $resourceType: String, $resourceId: String, $actorStaffId: ID, $actorApiKeyId: ID, $from: String, $to: String) {
      auditEvents(first: $first, after: $after, resourceType: $resourceType, resourceId: $resourceId, actorStaffId: $actorStaffId, actorApiKeyId: $actorApiKeyId, from: $from, to: $to) {
        nodes { id occurredAt actorStaffId actorApiKeyId requestId resourceType resourceId action before after }
        pageInfo { hasNextPage endCursor }
      }
    }`,
  },
];
