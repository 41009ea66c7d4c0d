export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The parts of an HTTP request a route maps onto GraphQL variables. */
export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

/**
 * One REST path, declared as the GraphQL operation that answers it. By default path parameters
 * and query parameters fill the operation's variables of the same names, the JSON body fills
 * `$input`, a path parameter named `org` must be the token's organization, and the answer is the
 * operation's single root field.
 */
export interface RestRoute {
  method: HttpMethod;
  /** OpenAPI-style path: `/api/organizations/{org}/locations/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /** One GraphQL operation, parsed and validated once at start. */
  operation: string;
  /** Success status; 204 sends no body. */
  status?: number;
  /** Who may call: a bearer token (default), the platform key, or anyone. */
  auth?: "token" | "platform" | "none";
  /** Path parameters copied into `$input` (for paths such as …/locations/{id}/breaks). */
  inputFromPath?: Record<string, string>;
  /** Query parameters read under another variable name. */
  queryAliases?: Record<string, string>;
  /** Replaces the default variables entirely. */
  variables?: (req: RestRequest) => Record<string, unknown>;
  /** The root field's value is a connection: answer its nodes as an array, the next cursor in headers. */
  list?: boolean;
  /** Turns the root field's value into the response body. */
  answer?: (value: unknown) => unknown;
}
