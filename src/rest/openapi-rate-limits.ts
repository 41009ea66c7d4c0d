type Json = Record<string, unknown>;

const ERROR = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };

/** The headers of draft-ietf-httpapi-ratelimit-headers, as every REST answer carries them. */
const HEADERS: Json = {
  "RateLimit-Policy": {
    description: 'The budget the call spent from: `"token";q=<points>;w=<seconds>` (per token or API key) or `"anonymous";q=<calls>;w=<seconds>` (calls without a token, per client address and per API key prefix)',
    schema: { type: "string" },
  },
  RateLimit: { description: 'What is left of that budget and in how many seconds it is full again: `"<policy>";r=<remaining>;t=<seconds>`', schema: { type: "string" } },
};
const RETRY_AFTER = { description: "Seconds until the budget has room again", schema: { type: "integer", minimum: 1 } };

/**
 * Declares the rate limits on every operation of an OpenAPI document: the RateLimit headers on
 * each answer, and 429 with Retry-After and the error body.
 */
export function withRateLimitHeaders(document: Json): Json {
  const refs = Object.fromEntries(Object.keys(HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]));
  for (const operations of Object.values(document.paths as Record<string, Record<string, { responses: Record<string, Json> }>>)) {
    for (const operation of Object.values(operations)) {
      const tooMany = (operation.responses["429"] ??= { description: "Rate limited", content: ERROR });
      tooMany.headers = { "Retry-After": RETRY_AFTER, ...(tooMany.headers as Json | undefined) };
      for (const response of Object.values(operation.responses)) response.headers = { ...(response.headers as Json | undefined), ...refs };
    }
  }
  const components = (document.components ?? {}) as Json;
  return { ...document, components: { ...components, headers: { ...(components.headers as Json | undefined), ...HEADERS } } };
}
