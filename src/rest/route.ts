export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Who may call: a bearer token, the platform key, or anyone. */
export type RouteAuth = "token" | "platform" | "none";

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
  /** Who may call (default "token": without a valid bearer token the answer is 401 before anything is read). */
  auth?: RouteAuth;
  /** Path parameters copied into `$input` (for paths such as …/locations/{id}/breaks). */
  inputFromPath?: Record<string, string>;
  /** The root field's value is a connection: answer its nodes as an array, the next cursor in headers. */
  list?: boolean;
}
