import { EVENT_CATALOG, PING_EVENT_TYPE } from "./event-catalog";

type JsonSchema = Record<string, unknown>;

const HEADERS = {
  "webhook-id": { required: true, schema: { type: "string" }, description: "The event's id (the same on every retry): deduplicate on it" },
  "webhook-timestamp": { required: true, schema: { type: "string" }, description: "Seconds since the epoch when the attempt was signed" },
  "webhook-signature": {
    required: true,
    schema: { type: "string" },
    description: "Space-separated v1,<base64 HMAC-SHA256 of id.timestamp.body>: two while a rotated secret is still valid",
  },
};

function eventSchema(type: string): JsonSchema {
  return {
    type: "object",
    required: ["id", "type", "occurredAt", "organizationId", "actor", "sequence", "data"],
    properties: {
      id: { type: "string", format: "uuid" },
      type: { const: type },
      occurredAt: { type: "string", format: "date-time" },
      organizationId: { type: "string", format: "uuid" },
      actor: { type: ["object", "null"], properties: { staffId: { type: ["string", "null"] }, apiKeyId: { type: ["string", "null"] } } },
      sequence: { type: "integer", description: "Position in the organization's commit order (order is not guaranteed on delivery: sort on this)" },
      data: {
        type: "object",
        required: ["object"],
        properties: { object: { type: "object" }, previousAttributes: { type: "object", description: "Old values of the changed fields (updates)" } },
      },
    },
  };
}

/** The OpenAPI 3.1 `webhooks` section: one entry per event type of the catalog and the test ping (docs/events.md). */
export function webhooksDocument(): Record<string, unknown> {
  const entries = [...Object.entries(EVENT_CATALOG), [PING_EVENT_TYPE, "A test ping sent by POST …/webhook-endpoints/{id}/test"]];
  return Object.fromEntries(
    entries.map(([type, description]) => [
      type,
      {
        post: {
          operationId: `${type.replace(/[._](\w)/g, (_: string, c: string) => c.toUpperCase())}Webhook`,
          summary: description,
          tags: ["Webhooks"],
          parameters: Object.entries(HEADERS).map(([name, h]) => ({ name, in: "header", ...h })),
          requestBody: { required: true, content: { "application/json": { schema: eventSchema(type) } } },
          responses: { "2XX": { description: "Delivered; any other answer (or none within 15 s) is retried, 410 disables the endpoint" } },
        },
      },
    ]),
  );
}
