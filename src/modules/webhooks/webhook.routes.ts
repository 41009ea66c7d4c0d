import { crudRoutes } from "../../rest/crud-routes";
import { RestRoute } from "../../rest/route";

const FIELDS = "id organizationId url description eventTypes enabled disabledReason createdAt updatedAt secret";
const DELIVERY_FIELDS = "id eventId eventType status attempts lastAttemptAt statusCode durationMs error response nextAttemptAt createdAt";
const ATTEMPT_FIELDS = "id deliveryId eventId eventType attempt status attemptedAt statusCode durationMs error response nextAttemptAt";
const ONE = "/api/organizations/{org}/webhook-endpoints/{id}";

export const webhookRoutes: RestRoute[] = [
  ...crudRoutes({
    tag: "Webhooks",
    collection: "webhook-endpoints",
    label: "webhook endpoint",
    fields: FIELDS,
    names: {
      list: "webhookEndpoints",
      one: "webhookEndpoint",
      create: "createWebhookEndpoint",
      update: "updateWebhookEndpoint",
      delete: "deleteWebhookEndpoint",
      input: "WebhookEndpoint",
    },
  }),
  {
    method: "POST",
    path: `${ONE}/rotate-secret`,
    summary: "Replace the signing secret (answered once); the old one keeps signing for 24 hours",
    tag: "Webhooks",
    operation: `mutation rotateWebhookEndpointSecret($id: ID!) { rotateWebhookEndpointSecret(id: $id) { ${FIELDS} } }`,
  },
  {
    method: "GET",
    path: `${ONE}/deliveries`,
    summary: "Every attempt to deliver to the endpoint, newest first: event, attempt number, status code, duration, error, next retry (paginated)",
    tag: "Webhooks",
    list: true,
    operation: `query webhookEndpointAttempts($id: ID!, $first: Int, $after: String) {
      webhookEndpointAttempts(id: $id, first: $first, after: $after) { nodes { ${ATTEMPT_FIELDS} } pageInfo { hasNextPage endCursor } }
    }`,
  },
  {
    method: "POST",
    path: `${ONE}/recover`,
    summary: "Send again every event since a time: {since}",
    tag: "Webhooks",
    status: 202,
    operation: `mutation recoverWebhookEndpoint($id: ID!, $input: RecoverWebhookEndpointInput!) { recoverWebhookEndpoint(id: $id, input: $input) { queued } }`,
  },
  {
    method: "POST",
    path: `${ONE}/test`,
    summary: "Send a ping (webhook_endpoint.test)",
    tag: "Webhooks",
    status: 202,
    operation: `mutation testWebhookEndpoint($id: ID!) { testWebhookEndpoint(id: $id) { ${DELIVERY_FIELDS} } }`,
  },
];
