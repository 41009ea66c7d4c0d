import {
  FieldNode,
  getNamedType,
  getNullableType,
  GraphQLInputObjectType,
  GraphQLInputType,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLOutputType,
  GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  SelectionSetNode,
  typeFromAST,
} from "graphql";
import { Permission } from "../auth/permissions";
import { MAX_PAGE_SIZE } from "../common/pagination";
import { refusesNull } from "../common/validation";
import { RawRestRoute } from "./raw-routes";
import { HttpMethod, RouteAuth } from "./route";
import { webhooksDocument } from "../modules/events/event-openapi";
import { CompiledRoute, PAGE_PARAMETERS } from "./shim";

type JsonSchema = Record<string, unknown>;

const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** What each tag groups, for the document's tag list. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Service: "The service itself: this document",
  Organizations: "Organizations, created with the platform key",
  Authentication: "API keys and the bearer tokens exchanged for them",
  "Access roles": "Named sets of permissions held by staff members, and the permissions there are",
  Locations: "Places where people work",
  Roles: "Job roles and their wages",
  Staff: "Staff members",
  Audit: "Who changed what, and when",
  Breaks: "Break types of a location",
  Timesheets: "Shifts, their notes, day locks, reports and the payroll export",
  "Time clock": "Clocking in and out, and breaks taken on the clock",
  Schedules: "Planned shifts, drafts and publishing",
  "Open shifts": "Shifts offered to workers, their claims and preferences",
  "Time off": "Time-off policies, balances, their ledger, accruals and requests",
  Attendance: "Clock-in rules, registered clock devices, the attendance policy and attendance exceptions",
  "Pay periods": "The pay schedule, its periods, timesheet approval and closing a period",
};

function scalarSchema(name: string): JsonSchema {
  switch (name) {
    case "Int":
    case "SafeInt":
      return { type: "integer" };
    case "Float":
      return { type: "number" };
    case "Boolean":
      return { type: "boolean" };
    case "DateTimeISO":
      return { type: "string", format: "date-time" };
    case "JSONObject":
      return { type: "object" };
    default:
      return { type: "string" };
  }
}

function nullable(schema: JsonSchema, isNullable: boolean): JsonSchema {
  if (!isNullable) return schema;
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

const described = (schema: JsonSchema, description: string | null | undefined): JsonSchema => (description ? { ...schema, description } : schema);

/** The named schemas of the document: bodies and answers are components named after their GraphQL types. */
class Components {
  readonly schemas: Record<string, JsonSchema> = { ErrorDetail: ERROR_DETAIL, Error: ERROR };

  /**
   * Registers a schema under `name`; a type selected differently elsewhere is named after where
   * it is used (`alias`: OpenShiftLocation, TimeOffRequestWorkerPolicy), so every name has one meaning.
   */
  register(name: string, build: () => JsonSchema, alias = name): JsonSchema {
    if (!this.schemas[name]) {
      this.schemas[name] = {};
      this.schemas[name] = build();
      return schemaRef(name);
    }
    const schema = build();
    const text = JSON.stringify(schema);
    for (let n = 0; ; n++) {
      const candidate = n === 0 ? name : n === 1 ? alias : `${alias}${n}`;
      const existing = this.schemas[candidate];
      if (!existing) {
        this.schemas[candidate] = schema;
        return schemaRef(candidate);
      }
      if (JSON.stringify(existing) === text) return schemaRef(candidate);
    }
  }

  /** The JSON schema of an input type; `omit` leaves out fields the path gives. */
  input(type: GraphQLInputType, omit: string[] = []): JsonSchema {
    const isNullable = !isNonNullType(type);
    const inner = getNullableType(type) as GraphQLInputType;
    if (isListType(inner)) return nullable({ type: "array", items: this.input(inner.ofType) }, isNullable);
    if (isEnumType(inner)) return nullable({ type: "string", enum: inner.getValues().map((v) => v.name) }, isNullable);
    if (isInputObjectType(inner)) {
      const obj = inner as GraphQLInputObjectType;
      const name = omit.length ? obj.name.replace(/Input$/, "Body") : obj.name;
      const build = () => {
        const fields = Object.values(obj.getFields()).filter((f) => !omit.includes(f.name));
        return described(
          {
            type: "object",
            additionalProperties: false,
            // A field that may be left out but never sent as null is declared so: optional, not nullable.
            properties: Object.fromEntries(
              fields.map((f) => [
                f.name,
                described(this.input(refusesNull(obj, f.name) && !isNonNullType(f.type) ? new GraphQLNonNull(f.type) : f.type), f.description),
              ]),
            ),
            required: fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name),
          },
          obj.description,
        );
      };
      // Input types are whole: one name, one schema (recursion stops at the placeholder).
      const ref = this.schemas[name] ? schemaRef(name) : this.register(name, build);
      return nullable(ref, isNullable);
    }
    return nullable(scalarSchema(getNamedType(inner).name), isNullable);
  }

  /** The JSON schema of what a selection set returns (every field of the type when there is none); `owner` names a variant. */
  output(type: GraphQLOutputType, selection: SelectionSetNode | undefined, owner: string): JsonSchema {
    const isNullable = !isNonNullType(type);
    const inner = getNullableType(type) as GraphQLOutputType;
    if (isListType(inner)) return nullable({ type: "array", items: this.output(inner.ofType, selection, owner) }, isNullable);
    if (isEnumType(inner)) return nullable({ type: "string", enum: inner.getValues().map((v) => v.name) }, isNullable);
    if (isObjectType(inner)) {
      const obj = inner as GraphQLObjectType;
      const fields = obj.getFields();
      const selected = selection
        ? selection.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD && Boolean(fields[s.name.value]))
        : Object.keys(fields).map((name) => ({ name: { value: name }, alias: undefined, selectionSet: undefined }));
      const build = () => {
        const properties: Record<string, JsonSchema> = {};
        for (const s of selected) {
          const def = fields[s.name.value];
          const key = s.alias?.value ?? s.name.value;
          properties[key] = described(this.output(def.type, s.selectionSet, `${obj.name}${capitalized(key)}`), def.description);
        }
        return described({ type: "object", additionalProperties: false, properties, required: Object.keys(properties) }, obj.description);
      };
      return nullable(this.register(obj.name, build, owner), isNullable);
    }
    return nullable(isScalarType(inner) ? scalarSchema(inner.name) : {}, isNullable);
  }
}

const ERROR_DETAIL: JsonSchema = {
  type: "object",
  description:
    "One field's complaint, the field named as the request gave it. A COMPLIANCE_VIOLATION's details are the violations (`violations.<n>`), each with its rule, severity, worker, entries, citation and premium; a NOT_ELIGIBLE's are the reasons (`reasons.<n>`), each with its code and the rule, time off or entry behind it",
  additionalProperties: false,
  properties: {
    field: { type: "string" },
    message: { type: "string" },
    ruleId: { type: "string" },
    code: { type: "string", description: "A NOT_ELIGIBLE reason: INACTIVE, ROLE, LOCATION, UNAVAILABLE, TIME_OFF, OVERLAP or a compliance rule" },
    sourceId: { type: "string", description: "The availability rule, time-off request or entry behind a reason" },
    severity: { type: "string", enum: ["error", "warning"] },
    workerId: { type: "string" },
    entryIds: { type: "array", items: { type: "string" } },
    citation: { type: "string" },
    premium: {
      anyOf: [
        { type: "object", additionalProperties: false, properties: { hours: { type: "number" }, amount: { type: "number" } }, required: ["hours", "amount"] },
        { type: "null" },
      ],
    },
  },
  required: ["field", "message"],
};

const ERROR: JsonSchema = {
  type: "object",
  description: "The body of every error answer",
  additionalProperties: false,
  properties: {
    error: {
      type: "object",
      additionalProperties: false,
      properties: {
        code: { type: "string", description: "Stable, machine-readable: VALIDATION_FAILED, NOT_FOUND, CONFLICT, …" },
        message: { type: "string", description: "For people, in the words of the REST body" },
        details: { type: "array", items: schemaRef("ErrorDetail") },
        requestId: { type: "string", description: "The X-Request-Id of the answer" },
      },
      required: ["code", "message", "details", "requestId"],
    },
  },
  required: ["error"],
};

const HEADERS: Record<string, JsonSchema> = {
  XRequestId: {
    description: "The request's id (the one given in X-Request-Id, or a new one); the log and the error body carry it",
    schema: { type: "string" },
  },
  ETag: { description: "The representation's validator, for If-Match", schema: { type: "string" } },
  XNextCursor: { description: "The cursor of the next page (absent on the last page)", schema: { type: "string" } },
  Link: { description: 'The next page as `<…>; rel="next"` (absent on the last page)', schema: { type: "string" } },
  IdempotentReplayed: {
    description: "`true` when this is the kept answer of an earlier call with the same Idempotency-Key",
    schema: { type: "string", enum: ["true"] },
  },
  IdempotentRedacted: {
    description:
      "`true` when this kept answer held a credential (an API key, a signing secret), which was not kept and reads `[redacted]`: revoke or rotate it if its first answer was lost",
    schema: { type: "string", enum: ["true"] },
  },
  RetryAfter: { description: "Seconds to wait before calling again", schema: { type: "integer", minimum: 0 } },
  RateLimitPolicy: {
    description:
      'The budget the call spent from (IETF RateLimit-Policy): `"token";q=<points>;w=<seconds>` (per token or API key), `"organization";q=<points>;w=<seconds>` (every token of the organization together) or `"anonymous";q=<calls>;w=<seconds>` (calls without a token, per client address and per API key prefix)',
    schema: { type: "string" },
  },
  RateLimit: {
    description: 'What is left of that budget and in how many seconds it is full again (IETF RateLimit): `"<policy>";r=<remaining>;t=<seconds>`',
    schema: { type: "string" },
  },
};

const PARAMETERS: Record<string, JsonSchema> = {
  XRequestId: {
    name: "X-Request-Id",
    in: "header",
    required: false,
    description: "An id of the caller's choosing (1–100 of letters, digits and `_.:-`) for this request",
    schema: { type: "string" },
  },
  IfMatch: {
    name: "If-Match",
    in: "header",
    required: false,
    description: "The ETag read: the change is refused with 412 if the record has changed since",
    schema: { type: "string" },
  },
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description: "Makes a retry safe: for 24 hours the same key and body get the first answer again; another body is 422",
    schema: { type: "string", minLength: 1, maxLength: 255 },
  },
};

/** Every answer but the health checks' carries the rate limit it spent from. */
const RATE_LIMIT_HEADERS = { "RateLimit-Policy": headerRef("RateLimitPolicy"), RateLimit: headerRef("RateLimit") };

const errorResponse = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { "X-Request-Id": headerRef("XRequestId"), ...RATE_LIMIT_HEADERS, ...headers },
  content: { "application/json": { schema: schemaRef("Error") } },
});

const RESPONSES = {
  BadRequest: errorResponse("The request is not valid: `details` names each field"),
  Unauthenticated: errorResponse("No valid credential"),
  Forbidden: errorResponse("The credential's access role does not allow this"),
  NotFound: errorResponse("The record (or one the request names) does not exist in this organization; for a record the body names, `details` names its field"),
  Conflict: errorResponse("The request conflicts with the current state; `details` names the record in the way"),
  PreconditionFailed: errorResponse("If-Match does not name the current version"),
  PayloadTooLarge: errorResponse("The body is larger than 1 MB"),
  UnsupportedMediaType: errorResponse("The body is not application/json"),
  IdempotencyKeyReused: errorResponse("The Idempotency-Key was used with another request"),
  TooManyRequests: errorResponse("Too many requests: retry after Retry-After seconds", { "Retry-After": headerRef("RetryAfter") }),
  InternalError: errorResponse("An unexpected failure, said nothing of here; the log has it under the request id"),
  ServiceUnavailable: errorResponse(
    "The database is unreachable, or the service too busy to take the call in time (MAX_WAIT_IN_LINE_MS); retry shortly, after Retry-After seconds when it is given",
    { "Retry-After": headerRef("RetryAfter") },
  ),
};

/** One operation of the document, whether a GraphQL-backed route or a raw one. */
interface OperationSpec {
  method: HttpMethod;
  path: string;
  operationId: string;
  summary: string;
  /** Sentences the description adds after the summary. */
  details?: string;
  tag: string;
  auth: RouteAuth;
  permissions: Permission[] | undefined;
  parameters: unknown[];
  requestBody?: JsonSchema;
  /** False where the body may be left out. */
  bodyRequired?: boolean;
  status: number;
  /** Content type → schema of the success answer (none for 204). */
  content: Record<string, JsonSchema>;
  list: boolean;
  tagged: boolean;
}

function describe(op: OperationSpec): string {
  const who =
    op.auth === "none"
      ? "Needs no credential."
      : op.auth === "platform"
        ? "Needs the platform key as bearer credential."
        : op.permissions
          ? `Needs a bearer token whose access role has ${op.permissions.length > 1 ? "one of the permissions" : "the permission"} ${op.permissions.join(", ")}.`
          : "Needs a bearer token.";
  const list = op.list ? ` The answer is one page (limit, at most ${MAX_PAGE_SIZE}, the default, and cursor); X-Next-Cursor and Link name the next one.` : "";
  return `${op.summary}.${op.details ? ` ${op.details}` : ""} ${who}${list}`;
}

function operationObject(op: OperationSpec): Record<string, unknown> {
  const write = op.method !== "GET";
  const authenticated = op.auth !== "none";
  // If-Match names the version of a record that exists: a POST that creates one (201) has none to name.
  const guarded = write && authenticated && !(op.method === "POST" && op.status === 201);
  const successHeaders = {
    "X-Request-Id": headerRef("XRequestId"),
    ...RATE_LIMIT_HEADERS,
    ...(op.tagged ? { ETag: headerRef("ETag") } : {}),
    ...(op.list ? { "X-Next-Cursor": headerRef("XNextCursor"), Link: headerRef("Link") } : {}),
    ...(op.method === "POST" ? { "Idempotent-Replayed": headerRef("IdempotentReplayed"), "Idempotent-Redacted": headerRef("IdempotentRedacted") } : {}),
  };
  const success =
    op.status === 204
      ? { description: "Done", headers: successHeaders }
      : {
          description: "Success",
          headers: successHeaders,
          content: Object.fromEntries(Object.entries(op.content).map(([type, schema]) => [type, { schema }])),
        };
  const responses: Record<string, unknown> = {
    [String(op.status)]: success,
    "400": responseRef("BadRequest"),
    "401": responseRef("Unauthenticated"),
    ...(authenticated ? { "403": responseRef("Forbidden") } : {}),
    // Without a credential only a body can name a record that may be missing (the token exchange's staffId).
    ...(authenticated || op.requestBody ? { "404": responseRef("NotFound") } : {}),
    ...(write ? { "409": responseRef("Conflict") } : {}),
    ...(guarded ? { "412": responseRef("PreconditionFailed") } : {}),
    ...(op.requestBody ? { "413": responseRef("PayloadTooLarge"), "415": responseRef("UnsupportedMediaType") } : {}),
    ...(op.method === "POST" ? { "422": responseRef("IdempotencyKeyReused") } : {}),
    "429": responseRef("TooManyRequests"),
    "500": responseRef("InternalError"),
    "503": responseRef("ServiceUnavailable"),
  };
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: describe(op),
    tags: [op.tag],
    ...(authenticated ? {} : { security: [] }),
    parameters: [
      ...op.parameters,
      parameterRef("XRequestId"),
      ...(guarded ? [parameterRef("IfMatch")] : []),
      ...(op.method === "POST" ? [parameterRef("IdempotencyKey")] : []),
    ],
    ...(op.requestBody ? { requestBody: { required: op.bodyRequired ?? true, content: { "application/json": { schema: op.requestBody } } } } : {}),
    responses,
  };
}

function pathParameter(name: string): JsonSchema {
  const description = name === "org" ? "The organization's id: the token's own organization" : `The ${name === "id" ? "record" : name.replace(/Id$/, "")}'s id`;
  return { name, in: "path", required: true, description, schema: { type: "string" } };
}

function graphqlOperation(schema: GraphQLSchema, c: CompiledRoute, components: Components): OperationSpec {
  const { route } = c;
  const root = c.operation.selectionSet.selections[0] as FieldNode;
  const rootType = c.operation.operation === "mutation" ? schema.getMutationType()! : schema.getQueryType()!;
  const field = rootType.getFields()[root.name.value];
  const status = route.status ?? 200;
  // A connection is answered as its nodes; a 204 with nothing.
  const nodes = route.list ? (root.selectionSet!.selections as FieldNode[]).find((s) => s.name.value === "nodes")! : undefined;
  const owner = capitalized(c.operation.name!.value);
  const content: Record<string, JsonSchema> =
    status === 204
      ? {}
      : {
          "application/json": nodes
            ? components.output((getNullableType(field.type) as GraphQLObjectType).getFields().nodes.type, nodes.selectionSet, owner)
            : components.output(field.type, root.selectionSet, owner),
        };
  const parameters: unknown[] = c.pathParams.map(pathParameter);
  const aliases: Record<string, string> = route.list ? PAGE_PARAMETERS : {};
  let requestBody: JsonSchema | undefined;
  let bodyRequired = false;
  if (c.bodyType) {
    requestBody = components.input(new GraphQLNonNull(c.bodyType));
    bodyRequired = Object.values(c.bodyType.getFields()).some((f) => isNonNullType(f.type));
  }
  for (const [name, def] of c.variables) {
    if (c.pathParams.includes(name) || c.bodyType) continue;
    const type = typeFromAST(schema, def.type as never) as GraphQLInputType;
    if (name === "input") {
      requestBody = components.input(isNonNullType(type) ? type : new GraphQLNonNull(type), Object.values(route.inputFromPath ?? {}));
      bodyRequired = isNonNullType(type);
    } else {
      const argument = field.args.find((a) => a.name === name);
      // REST pages hold the most records by default, where GraphQL's `first` has a smaller default.
      const description = aliases[name] === "limit" ? `Page size, 1 to ${MAX_PAGE_SIZE} (default ${MAX_PAGE_SIZE})` : argument?.description;
      parameters.push({
        name: aliases[name] ?? name,
        in: "query",
        required: isNonNullType(type),
        ...(description ? { description } : {}),
        schema: components.input(type),
      });
    }
  }
  return {
    method: route.method,
    path: route.path,
    operationId: c.operation.name!.value,
    summary: route.summary,
    tag: route.tag,
    auth: route.auth ?? "token",
    permissions: c.permissions,
    parameters,
    requestBody,
    bodyRequired,
    status,
    content,
    list: Boolean(route.list),
    tagged: route.method === "GET" ? !route.list : route.method === "PATCH" || route.method === "PUT",
  };
}

function rawOperation(schema: GraphQLSchema, route: RawRestRoute, components: Components): OperationSpec {
  return {
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    details: route.details,
    tag: route.tag,
    auth: "token",
    permissions: undefined,
    parameters: Object.entries(route.query).map(([name, spec]) => ({
      name,
      in: "query",
      required: Boolean(spec.required),
      description: spec.description,
      schema: spec.enum ? { type: "string", enum: spec.enum } : { type: "string" },
    })),
    status: 200,
    content: Object.fromEntries(
      Object.entries(route.produces).map(([type, body]) => [
        type,
        body === "text"
          ? { type: "string" }
          : { type: "array", items: components.output(new GraphQLNonNull(schema.getType(body.arrayOf) as GraphQLObjectType), undefined, body.arrayOf) },
      ]),
    ),
    list: false,
    tagged: false,
  };
}

/** The document itself, served at /api/openapi.json. */
const DOCUMENT_OPERATION: OperationSpec = {
  method: "GET",
  path: "/api/openapi.json",
  operationId: "openApiDocument",
  summary: "This OpenAPI document",
  tag: "Service",
  auth: "none",
  permissions: undefined,
  parameters: [],
  status: 200,
  content: { "application/json": { type: "object", description: "An OpenAPI 3.1 document" } },
  list: false,
  tagged: false,
};

/** OpenAPI 3.1 of every REST path, generated from the route tables and the GraphQL schema. */
export function openApiDocument(schema: GraphQLSchema, routes: CompiledRoute[], rawRoutes: RawRestRoute[]): JsonSchema {
  const components = new Components();
  // Raw routes first, as they are mounted: their fixed paths win over a GraphQL route's {id}.
  const operations = [
    DOCUMENT_OPERATION,
    ...rawRoutes.map((r) => rawOperation(schema, r, components)),
    ...routes.map((c) => graphqlOperation(schema, c, components)),
  ];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    paths[op.path] ??= {};
    paths[op.path][op.method.toLowerCase()] = operationObject(op);
  }
  const tags = [...new Set(operations.map((op) => op.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
  return {
    openapi: "3.1.0",
    info: {
      title: "Workforce time-tracking and scheduling API",
      version: "1.0.0",
      description:
        "Every path is answered by the GraphQL schema at /graphql. Errors have the body `Error`: {error: {code, message, details, requestId}}. " +
        "Bodies are application/json; unknown fields are refused with 400.",
      contact: { name: "Workforce service maintainers" },
      // package.json says UNLICENSED: no license is granted.
      license: { name: "Proprietary (UNLICENSED)", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: "/", description: "This service" }],
    tags,
    components: {
      schemas: components.schemas,
      responses: RESPONSES,
      headers: HEADERS,
      parameters: PARAMETERS,
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "A token from POST /api/auth/token-exchange (the platform key for POST /api/organizations)",
        },
      },
    },
    security: [{ bearer: [] }],
    paths,
    webhooks: webhooksDocument(),
  };
}
