import { createHash } from "node:crypto";
import {
  DocumentNode,
  GraphQLError,
  GraphQLNonNull,
  getNamedType,
  GraphQLInputObjectType,
  GraphQLInputType,
  GraphQLSchema,
  isEnumType,
  isInputObjectType,
  Kind,
  OperationDefinitionNode,
  parse,
  specifiedRules,
  TypeNode,
  typeFromAST,
  validate,
  VariableDefinitionNode,
} from "graphql";
import type { Request, Response, Router } from "express";
import express from "express";
import { MAX_PAGE_SIZE } from "../common/pagination";
import { jsonBytes, sendJsonBytes } from "../common/json-bytes";
import { requireAnyPermission } from "../auth/actor";
import { permissionsOf } from "../graphql/authorization";
import { Permission } from "../auth/permissions";
import { badRequest, ifMatchFailed, invalidField, notFound, unauthenticated, validationFailed } from "../errors/app-error";
import { ClientError, refusal, SendError, toClientError } from "../errors/client-error";
import { compileOperation, OperationRunner } from "../graphql/compiled-operations";
import { queryLimitsRule } from "../graphql/limits";
import type { RequestContext } from "../graphql/context";
import { Loaders } from "../loaders/loaders";
import { checkBody } from "./body-check";
import { RestRequest, RestRoute } from "./route";

/**
 * One GraphQL operation of a single root field, parsed and validated (with the query limits) at
 * start and compiled on its first call: what a REST path or an assistant's tool runs, through the
 * same resolvers, guards and validation as a GraphQL request. Compiled at start, the ~200 paths'
 * and tools' functions would hold tens of MB in an idle service, for paths it may never serve.
 */
export interface GuardedOperation {
  /** The permissions guarding the root field (any one suffices); undefined when unguarded. */
  permissions: Permission[] | undefined;
  /** The operation, compiled on its first call. */
  run: OperationRunner;
  operation: OperationDefinitionNode;
  rootField: string;
  /** The root field's name, whose guard is checked once, before the variables are read. */
  guardedField: string;
  variables: Map<string, VariableDefinitionNode>;
}

export interface CompiledRoute extends GuardedOperation {
  route: RestRoute;
  expressPath: string;
  pathParams: string[];
  /** A write without `$input` takes its other variables from the JSON body, as this type's fields. */
  bodyType?: GraphQLInputObjectType;
}

const ORG_PARAM = "org";

/** A list's page arguments, as the REST query string names them. */
export const PAGE_PARAMETERS: Record<string, string> = { first: "limit", after: "cursor" };

/** An error about a list's page arguments in the REST words: `limit` and `cursor`, never `first` and `after`. */
function inPageWords(error: ClientError): ClientError {
  const isPageArgument = (field: string) => Object.hasOwn(PAGE_PARAMETERS, field);
  const renamed = error.details.filter((d) => isPageArgument(d.field)).map((d) => d.field);
  if (!renamed.length) return error;
  const words = (text: string) => renamed.reduce((t, name) => t.replace(new RegExp(`\\b${name}\\b`, "g"), PAGE_PARAMETERS[name]), text);
  return {
    ...error,
    message: words(error.message),
    details: error.details.map((d) => (isPageArgument(d.field) ? { ...d, field: PAGE_PARAMETERS[d.field], message: words(d.message) } : d)),
  };
}

/**
 * Refuses an operation the schema does not validate; `where` names its user. Every REST route's and
 * MCP tool's operation is checked by a test, and again before its first call: validating them all
 * at start took a tenth of a second of every start.
 */
export function assertValidOperation(schema: GraphQLSchema, document: DocumentNode, where: string): void {
  const errors = validate(schema, document, [...specifiedRules, queryLimitsRule()]);
  if (errors.length) throw new Error(`${where}: ${errors.map((e) => e.message).join("; ")}`);
}

/** Parses an operation of one root field, to validate and compile on first call; `where` names its user in the error a malformed one stops the start with. */
export function compileGuardedOperation(schema: GraphQLSchema, text: string, where: string): GuardedOperation {
  const document = parse(text);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const roots = operation.selectionSet.selections;
  if (roots.length !== 1 || roots[0].kind !== Kind.FIELD) throw new Error(`${where}: the operation must select one root field`);
  const root = roots[0];
  let compiled: OperationRunner | undefined;
  // The operation's name is the document's operationId: one style for all of them.
  if (!operation.name || !/^[a-z][A-Za-z0-9]*$/.test(operation.name.value)) throw new Error(`${where}: name the operation in camelCase`);
  return {
    permissions: permissionsOf(operation.operation === "mutation" ? "mutation" : "query", root.name.value),
    run: (context, variables) => {
      if (!compiled) {
        assertValidOperation(schema, document, where);
        compiled = compileOperation(schema, document);
      }
      return compiled(context, variables);
    },
    operation,
    rootField: root.alias?.value ?? root.name.value,
    guardedField: root.name.value,
    variables: new Map((operation.variableDefinitions ?? []).map((v) => [v.variable.name.value, v])),
  };
}

/** Refuses a caller without the root field's permission (403), before any of the call's input is read. */
export function requireOperationPermission(op: GuardedOperation, context: RequestContext): void {
  if (op.permissions) requireAnyPermission(context.actor, op.permissions);
}

/**
 * Runs an operation whose guard `requireOperationPermission` has passed (GraphQL's own guard of
 * the root field then passes without checking again: one check per call); answers the root
 * field's value, or throws the first GraphQL error as it came.
 */
export async function runGuardedOperation(op: GuardedOperation, context: RequestContext, variables: Record<string, unknown>): Promise<unknown> {
  const result = await op.run(op.permissions ? { ...context, checkedRootField: op.guardedField } : context, variables);
  if (result.errors?.length) throw result.errors[0];
  return (result.data as Record<string, unknown>)[op.rootField];
}

/** Parses and validates every route's operation once; a broken route stops the start, not a request. */
export function compileRoutes(schema: GraphQLSchema, routes: RestRoute[]): CompiledRoute[] {
  return routes.map((route) => {
    const guarded = compileGuardedOperation(schema, route.operation, `REST route ${route.method} ${route.path}`);
    const { operation } = guarded;
    const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const bodyVariables = (operation.variableDefinitions ?? []).filter((v) => !pathParams.includes(v.variable.name.value));
    const takesBody =
      route.method !== "GET" && route.method !== "DELETE" && bodyVariables.length > 0 && !bodyVariables.some((v) => v.variable.name.value === "input");
    const bodyType = takesBody
      ? new GraphQLInputObjectType({
          name: `${operation.name!.value.charAt(0).toUpperCase()}${operation.name!.value.slice(1)}Body`,
          fields: Object.fromEntries(bodyVariables.map((v) => [v.variable.name.value, { type: typeFromAST(schema, v.type as never) as GraphQLInputType }])),
        })
      : undefined;
    return {
      ...guarded,
      route,
      expressPath: route.path.replace(/\{(\w+)\}/g, ":$1"),
      pathParams,
      bodyType,
    };
  });
}

function namedTypeOf(type: TypeNode): { name: string; list: boolean } {
  if (type.kind === Kind.NON_NULL_TYPE) return namedTypeOf(type.type);
  if (type.kind === Kind.LIST_TYPE) return { name: namedTypeOf(type.type).name, list: true };
  return { name: type.name.value, list: false };
}

/** Query strings are text: read them as the variable's GraphQL type says, with a 400 naming the parameter. */
function coerceQueryValue(name: string, raw: unknown, definition: VariableDefinitionNode, schema: GraphQLSchema): unknown {
  if (Array.isArray(raw) || typeof raw !== "string") throw invalidField(name, `${name} must be given once, as plain text`);
  const { name: typeName, list } = namedTypeOf(definition.type);
  const type = schema.getType(typeName);
  const one = (text: string): unknown => {
    switch (typeName) {
      case "Int": {
        // GraphQL's Int is 32 bits: a longer number would be refused later in GraphQL's words.
        if (!/^-?\d+$/.test(text) || Math.abs(Number(text)) > 2 ** 31 - 1) throw invalidField(name, `${name} must be a whole number`);
        return Number(text);
      }
      case "Float": {
        const n = Number(text);
        if (text.trim() === "" || !Number.isFinite(n)) throw invalidField(name, `${name} must be a number`);
        return n;
      }
      case "Boolean":
        if (text === "true" || text === "1") return true;
        if (text === "false" || text === "0") return false;
        throw invalidField(name, `${name} must be true or false`);
      default:
        if (isEnumType(type) && !type.getValue(text))
          throw invalidField(
            name,
            `${name} must be one of ${type
              .getValues()
              .map((v) => v.name)
              .join(", ")}`,
          );
        return text;
    }
  };
  return list ? raw.split(",").filter(Boolean).map(one) : one(raw);
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

function variablesFor(compiled: CompiledRoute, req: RestRequest, schema: GraphQLSchema): Record<string, unknown> {
  const { route, variables } = compiled;
  const values: Record<string, unknown> = {};
  for (const param of compiled.pathParams) {
    if (variables.has(param)) values[param] = req.params[param];
  }
  const aliases: Record<string, string> = route.list ? Object.fromEntries(Object.entries(PAGE_PARAMETERS).map(([name, key]) => [key, name])) : {};
  for (const [key, raw] of Object.entries(req.query)) {
    const name = Object.hasOwn(aliases, key) ? aliases[key] : key;
    const definition = variables.get(name);
    if (!definition || compiled.pathParams.includes(name) || name === "input" || compiled.bodyType) {
      throw invalidField(key, `Unknown query parameter "${key}"`);
    }
    values[name] = coerceQueryValue(key, raw, definition, schema);
  }
  const queryNames = Object.fromEntries(Object.entries(aliases).map(([key, name]) => [name, key]));
  for (const [name, definition] of variables) {
    if (name === "input" || compiled.pathParams.includes(name) || values[name] !== undefined) continue;
    if (definition.type.kind === Kind.NON_NULL_TYPE && !definition.defaultValue)
      throw invalidField(queryNames[name] ?? name, `${queryNames[name] ?? name} is required`);
  }
  if (compiled.bodyType) {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const details = checkBody(new GraphQLNonNull(compiled.bodyType), body);
    if (details.length) throw validationFailed(details.map((d) => d.message).join("; "), details);
    Object.assign(values, body);
  }
  if (route.list && values.first === undefined && variables.has("first")) values.first = MAX_PAGE_SIZE;
  const inputDef = variables.get("input");
  if (inputDef) {
    const inputType = schema.getType(namedTypeOf(inputDef.type).name);
    const body = req.body ?? {};
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest("The request body must be a JSON object");
    const fromPath = Object.fromEntries(Object.entries(route.inputFromPath ?? {}).map(([param, field]) => [field, req.params[param]]));
    for (const field of Object.keys(fromPath)) {
      if (field in (body as object)) throw invalidField(field, `${field} comes from the path and cannot be given in the body`);
    }
    values.input = isInputObjectType(getNamedType(inputType ?? undefined)) ? { ...(body as object), ...fromPath } : body;
    const details = checkBody(typeFromAST(schema, inputDef.type as never) as GraphQLInputType, values.input);
    if (details.length) throw validationFailed(details.map((d) => d.message).join("; "), details);
  } else if (!compiled.bodyType && req.body !== undefined && !isEmptyObject(req.body)) {
    throw badRequest("This path takes no request body");
  }
  return values;
}

export interface ShimOptions {
  schema: GraphQLSchema;
  sendError: SendError;
  onInternalError: (req: Request, error: unknown) => void;
}

/** Runs a route's operation; a GraphQL error is thrown as it came. */
async function runRoute(c: CompiledRoute, req: RestRequest, context: RequestContext, schema: GraphQLSchema): Promise<unknown> {
  const params = req.params;
  if ((c.route.auth ?? "token") === "token" && !context.actor) throw unauthenticated();
  if (c.pathParams.includes(ORG_PARAM) && (!context.actor || context.actor.organizationId !== String(params[ORG_PARAM]).toLowerCase())) {
    if (!context.actor) throw unauthenticated();
    throw notFound("Organization");
  }
  // The field's own guard, checked before the body is read: a caller without the permission learns nothing from validation.
  requireOperationPermission(c, context);
  return runGuardedOperation(c, context, variablesFor(c, req, schema));
}

/**
 * The validator of a representation: `"<id>@<updatedAt>"` for a record that has both (a change
 * made with it in If-Match is then checked by the database itself, on the locked row: see the
 * GuardRecordVersions migration), else a hash of the whole answer, unless `hash` is false.
 */
export function entityTag(body: unknown, bytes?: Buffer[], hash = true): string | undefined {
  const record = body as { id?: unknown; updatedAt?: unknown } | null;
  if (record && typeof record.id === "string" && typeof record.updatedAt === "string") return `"${record.id}@${record.updatedAt}"`;
  if (!hash) return undefined;
  const digest = createHash("sha256");
  for (const piece of bytes ?? jsonBytes(body)) digest.update(piece);
  return `"${digest.digest("base64url").slice(0, 27)}"`;
}

/**
 * Sends a JSON answer made in pieces (src/common/json-bytes.ts). A tagged one goes through
 * express whole, which answers a matching If-None-Match with 304; an untagged one is written
 * piece by piece.
 */
function sendJson(req: Request, res: Response, bytes: Buffer[]): void {
  res.type("json");
  if (bytes.length === 1 || res.get("ETag")) {
    res.send(bytes.length === 1 ? bytes[0] : Buffer.concat(bytes));
    return;
  }
  sendJsonBytes(res, bytes, req.method === "HEAD");
}

/** Mounts every compiled route on an express router. */
export function restRouter(compiled: CompiledRoute[], options: ShimOptions): Router {
  const router = express.Router();
  const readers = new Map(compiled.filter((c) => c.route.method === "GET" && !c.route.list).map((c) => [c.route.path, c]));
  const changeable = new Set(compiled.filter((c) => c.route.method === "PATCH" || c.route.method === "PUT").map((c) => c.route.path));
  for (const c of compiled) {
    const method = c.route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
    const reader = c.route.method === "PATCH" || c.route.method === "PUT" ? readers.get(c.route.path) : undefined;
    const tagged = c.route.method === "GET" ? !c.route.list : Boolean(reader);
    // An answer that is not a versioned record is hashed only where If-Match can use the tag: hashing
    // a long read-only answer (a week of shifts) for nothing cost more than its SQL.
    const hashed = c.route.method === "GET" ? changeable.has(c.route.path) : Boolean(reader);
    router[method](c.expressPath, async (req: Request, res: Response) => {
      try {
        const context = res.locals.context as RequestContext;
        if ((c.variables.has("input") || c.bodyType) && req.is(["application/json", "application/*+json"]) === false) {
          return options.sendError(
            res,
            req,
            refusal("UNSUPPORTED_MEDIA_TYPE", `The request body must be application/json${req.get("content-type") ? `, not ${req.get("content-type")}` : ""}`),
          );
        }
        const rest: RestRequest = { params: req.params as Record<string, string>, query: req.query as Record<string, unknown>, body: req.body };
        // If-Match guards a change against a lost update: it must name the representation as it is now.
        const ifMatch = req.get("if-match");
        if (reader && ifMatch !== undefined && ifMatch.trim() !== "*") {
          const read = await runRoute(reader, { params: rest.params, query: {}, body: undefined }, { ...context, loaders: new Loaders() }, options.schema);
          const current = entityTag(read);
          const given = ifMatch.split(",").map((t) => t.trim().replace(/^W\//, ""));
          if (!current || !given.includes(current)) {
            return options.sendError(res, req, ifMatchFailed());
          }
        }
        const value = await runRoute(c, rest, context, options.schema);
        const status = c.route.status ?? 200;
        if (status === 204) return res.status(204).end();
        let body: unknown = value;
        if (c.route.list) {
          const page = value as { nodes: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
          if (page.pageInfo.hasNextPage && page.pageInfo.endCursor) {
            res.setHeader("X-Next-Cursor", page.pageInfo.endCursor);
            const next = new URL(req.originalUrl, "http://placeholder");
            next.searchParams.set("cursor", page.pageInfo.endCursor);
            res.setHeader("Link", `<${next.pathname}${next.search}>; rel="next"`);
          }
          body = page.nodes;
        }
        // Serialized once for both the ETag and the body: large answers cost it twice otherwise.
        const bytes = jsonBytes(body);
        const tag = tagged ? entityTag(body, bytes, hashed) : undefined;
        if (tag) res.setHeader("ETag", tag);
        sendJson(req, res.status(status), bytes);
      } catch (error) {
        const clientError = c.route.list ? inPageWords(toClientError(error as Error)) : toClientError(error as Error);
        if (clientError.internal) options.onInternalError(req, error instanceof GraphQLError ? (error.originalError ?? error) : error);
        options.sendError(res, req, clientError);
      }
    });
  }
  return router;
}
