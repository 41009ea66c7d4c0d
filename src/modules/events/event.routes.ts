import { RestRoute } from "../../rest/route";

export const EVENT_FIELDS = "id type occurredAt organizationId actor { staffId apiKeyId } sequence data { object previousAttributes }";

export const eventRoutes: RestRoute[] = [
  {
    method: "GET",
    path: "/api/organizations/{org}/events",
    summary: "Events in commit order, kept 30 days: after (the last sequence read), types (comma-separated), limit",
    tag: "Events",
    list: true,
    operation: `query events($first: Int, $after: String, $types: [String!]) {
      events(first: $first, after: $after, types: $types) { nodes { ${EVENT_FIELDS} } pageInfo { hasNextPage endCursor } }
    }`,
  },
];
