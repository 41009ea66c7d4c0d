import {
  FieldNode,
  getNamedType,
  getNullableType,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInputType,
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
import { webhooksDocument } from "../modules/events/event-openapi";
import { CompiledRoute } from "./shim";

type JsonSchema = Record<string, unknown>;

function scalarSchema(name: string): JsonSchema {
  switch (name) {
    case "Int":
      return { type: "integer" };
    case "Float":
      return { type: "number" };
    case "Boolean":
      return { type: "boolean" };
    case "DateTimeISO":
      return { type: "string", format: "date-time" };
    default:
      return { type: "string" };
  }
}

function nullable(schema: JsonSchema, isNullable: boolean): JsonSchema {
  if (!isNullable) return schema;
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

/** The JSON schema of an input type, components registered by name. */
function inputSchema(type: GraphQLInputType, components: Record<string, JsonSchema>): JsonSchema {
  const isNullable = !isNonNullType(type);
  const inner = getNullableType(type) as GraphQLInputType;
  if (isListType(inner)) return nullable({ type: "array", items: inputSchema(inner.ofType, components) }, isNullable);
  if (isEnumType(inner)) return nullable({ type: "string", enum: (inner as GraphQLEnumType).getValues().map((v) => v.name) }, isNullable);
  if (isInputObjectType(inner)) {
    const obj = inner as GraphQLInputObjectType;
    if (!components[obj.name]) {
      components[obj.name] = {};
      const fields = obj.getFields();
      components[obj.name] = {
        type: "object",
        additionalProperties: false,
        ...(obj.description ? { description: obj.description } : {}),
        properties: Object.fromEntries(Object.values(fields).map((f) => [f.name, { ...inputSchema(f.type, components), ...(f.description ? { description: f.description } : {}) }])),
        required: Object.values(fields).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name),
      };
    }
    return nullable({ $ref: `#/components/schemas/${obj.name}` }, isNullable);
  }
  return nullable(scalarSchema(getNamedType(inner).name), isNullable);
}

/** The JSON schema of what a selection set returns. */
function outputSchema(type: GraphQLOutputType, selection: SelectionSetNode | undefined): JsonSchema {
  const isNullable = !isNonNullType(type);
  const inner = getNullableType(type) as GraphQLOutputType;
  if (isListType(inner)) return nullable({ type: "array", items: outputSchema(inner.ofType, selection) }, isNullable);
  if (isEnumType(inner)) return nullable({ type: "string", enum: inner.getValues().map((v) => v.name) }, isNullable);
  if (isObjectType(inner) && selection) {
    const fields = (inner as GraphQLObjectType).getFields();
    const properties: Record<string, JsonSchema> = {};
    for (const s of selection.selections) {
      if (s.kind !== Kind.FIELD) continue;
      const def = fields[s.name.value];
      if (!def) continue;
      properties[s.alias?.value ?? s.name.value] = { ...outputSchema(def.type, s.selectionSet), ...(def.description ? { description: def.description } : {}) };
    }
    return nullable({ type: "object", properties, required: Object.keys(properties) }, isNullable);
  }
  return nullable(isScalarType(inner) ? scalarSchema(inner.name) : {}, isNullable);
}

const ERROR_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: {
        code: { type: "string" },
        message: { type: "string" },
        details: { type: "array", items: { type: "object", properties: { field: { type: "string" }, message: { type: "string" } } } },
        requestId: { type: "string" },
      },
      required: ["code", "message", "details", "requestId"],
    },
  },
  required: ["error"],
};

/** OpenAPI 3.1 of every REST path, generated from the route table and the GraphQL schema. */
export function openApiDocument(schema: GraphQLSchema, routes: CompiledRoute[]): JsonSchema {
  const components: Record<string, JsonSchema> = { Error: ERROR_SCHEMA };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const c of routes) {
    const { route } = c;
    const root = c.operation.selectionSet.selections[0] as FieldNode;
    const rootType = c.operation.operation === "mutation" ? schema.getMutationType()! : schema.getQueryType()!;
    const field = rootType.getFields()[root.name.value];
    let response = outputSchema(field.type, root.selectionSet);
    if (route.list) response = ((response.properties as Record<string, JsonSchema>)?.nodes ?? response) as JsonSchema;
    const parameters: unknown[] = c.pathParams.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
    const aliases = Object.fromEntries(Object.entries({ ...(route.list ? { limit: "first", cursor: "after" } : {}), ...route.queryAliases }).map(([k, v]) => [v, k]));
    let requestBody: unknown;
    if (!route.variables) {
      for (const [name, def] of c.variables) {
        if (c.pathParams.includes(name)) continue;
        const type = typeFromAST(schema, def.type as never) as GraphQLInputType;
        if (name === "input") {
          requestBody = { required: true, content: { "application/json": { schema: inputSchema(type, components) } } };
        } else {
          parameters.push({ name: aliases[name] ?? name, in: "query", required: isNonNullType(type), schema: inputSchema(type, components) });
        }
      }
    }
    const status = String(route.status ?? 200);
    const responses: Record<string, unknown> = {
      [status]: status === "204" ? { description: "Done" } : { description: "Success", content: { "application/json": { schema: response } } },
      "400": { description: "Bad request", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      ...(route.auth === "none" ? {} : { "401": { description: "Unauthenticated", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } } }),
      ...(route.auth ? {} : { "403": { description: "Forbidden" }, "404": { description: "Not found" } }),
      "409": { description: "Conflict with the current state" },
    };
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = {
      operationId: c.operation.name?.value,
      summary: route.summary,
      tags: [route.tag],
      ...(route.auth === "none" ? { security: [] } : {}),
      parameters,
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Workforce time-tracking and scheduling API", version: "1.0.0", description: "Every path is answered by the GraphQL schema at /graphql. Errors have the body {error: {code, message, details, requestId}}." },
    servers: [{ url: "/" }],
    components: { schemas: components, securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    security: [{ bearer: [] }],
    paths,
    webhooks: webhooksDocument(),
  };
}
