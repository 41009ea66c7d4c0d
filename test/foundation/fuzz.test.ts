import fc from "fast-check";
import {
  FieldNode,
  getNamedType,
  GraphQLField,
  GraphQLInputType,
  GraphQLNonNull,
  GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  NamedTypeNode,
  OperationDefinitionNode,
  parse,
  parseValue,
  typeFromAST,
  valueFromASTUntyped,
} from "graphql";
import { graphqlSchema, restRoutes } from "../../src/app/modules";
import type { RestRoute } from "../../src/rest/route";
import { checkBody } from "../../src/rest/body-check";
import { compileRoutes, CompiledRoute, PAGE_PARAMETERS } from "../../src/rest/shim";
import { carriesId, literalFor } from "../support/graphql-arguments";
import { TestOrganization, TestService } from "../support/harness";
import { fillPath, recordIdFor, victimRecords } from "../support/records";

/**
 * Hostile input on every REST path and every GraphQL mutation: each starts from a valid call (the
 * organization's own records, a valid body and query string, or valid variables) changed at one
 * place, mostly with a value of the type the place takes (extreme numbers, every enum value, empty,
 * long and unicode text, other records' ids, dates at edges) and now and then with a wrong type,
 * null, huge strings and arrays, deep nesting, SQL and script fragments or unknown fields. Never a 5xx or an internal error; a refusal always has the
 * error body (or code); and a refused request writes nothing (the audit trail would show it).
 */
const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.constantFrom(
    "'; DROP TABLE shifts; --",
    "<script>alert(1)</script>",
    "2026-02-30",
    "2026-13-01T25:61:00Z",
    "Mars/Olympus",
    "not-a-uuid",
    "00000000-0000-0000-0000-000000000000",
    "\u0000",
    "\ud800",
    "NaN",
    "-1",
    "1e309",
    "",
  ),
  fc.constant("x".repeat(100_000)),
);
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.constantFrom(null, true, false, 2 ** 53, -1, 0, 1e308),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileString, tie("value"), { maxKeys: 3 }),
  ),
})).value;

/**
 * Each sweep sends over a thousand calls; on a busy shared machine that took more than the suite's
 * five minutes. The limit only ends a hang (a sweep cut short would go on writing beside the next).
 */
const SWEEP_TIMEOUT = 30 * 60_000;

/** Codes of a refusal of the input itself, before the operation looks at any record. */
const REFUSED_INPUT = ["VALIDATION_FAILED", "BAD_USER_INPUT", "BAD_REQUEST", "GRAPHQL_VALIDATION_FAILED", "GRAPHQL_PARSE_FAILED"];

/** The variables of a valid call of `field`: its required arguments and those that carry ids, as the isolation matrix sends them. */
function validArguments(field: GraphQLField<unknown, unknown>, idFor: (name: string) => string): Record<string, unknown> {
  const args = field.args.filter((a) => (isNonNullType(a.type) && a.defaultValue === undefined) || carriesId(a.type));
  return Object.fromEntries(args.map((a) => [a.name, valueFromASTUntyped(parseValue(literalFor(a.type, a.name, idFor, a.description ?? "")))]));
}

/** Every place of an argument a value can go (input fields, optional ones too, and a list's first item), with its type. */
function placesIn(type: GraphQLInputType, path: (string | number)[], depth = 0): { path: (string | number)[]; type: GraphQLInputType }[] {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [{ path, type }, ...placesIn(inner.ofType, [...path, 0], depth + 1)];
  if (isInputObjectType(inner) && depth < 3) return Object.values(inner.getFields()).flatMap((f) => placesIn(f.type, [...path, f.name], depth + 1));
  return [{ path, type }];
}

/** Sets a value deep in the variables, making the objects and lists on the way. */
function setAt(target: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  let at: Record<string | number, unknown> = target;
  for (let i = 0; i < path.length - 1; i++) {
    if (at[path[i]] === null || typeof at[path[i]] !== "object") at[path[i]] = typeof path[i + 1] === "number" ? [] : {};
    at = at[path[i]] as Record<string | number, unknown>;
  }
  at[path[path.length - 1]] = value;
}

/**
 * A hostile value that mostly has the type the place takes (so the call gets past GraphQL's own
 * coercion to the resolver): extreme numbers, hostile text, ids of other records or of nothing,
 * every value of an enum, null where allowed; now and then a value of the wrong type.
 */
function typedHostile(type: GraphQLInputType, ids: Record<string, string>): fc.Arbitrary<unknown> {
  const inner = isNonNullType(type) ? type.ofType : type;
  const named = getNamedType(inner);
  let typed: fc.Arbitrary<unknown>;
  if (isListType(inner)) typed = fc.array(typedHostile(inner.ofType, ids), { maxLength: 3 });
  else if (named.name === "ID") typed = fc.oneof(fc.constantFrom(...Object.values(ids)), fc.uuid(), hostileString);
  else if (isEnumType(named)) typed = fc.constantFrom(...named.getValues().map((v) => v.name));
  else if (named.name === "Int") typed = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(0, -1, 1, 2 ** 31 - 1));
  else if (named.name === "Float") typed = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0.01, 1e308, 0.00001));
  else if (named.name === "Boolean") typed = fc.boolean();
  else if (named.name === "DateTimeISO")
    typed = fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      hostileString,
    );
  else if (isInputObjectType(named)) typed = fc.dictionary(fc.constantFrom(...Object.keys(named.getFields())), hostileValue, { maxKeys: 3 });
  else typed = hostileString;
  const arbitraries = [
    { weight: 8, arbitrary: typed },
    { weight: 1, arbitrary: hostileValue },
  ];
  return fc.oneof(...arbitraries, ...(isNonNullType(type) ? [] : [{ weight: 1, arbitrary: fc.constant(null) }]));
}

/** A REST call's body and query string. */
interface RestCall {
  body: Record<string, unknown>;
  query: Record<string, string>;
}

/** One place of a REST call a value can go: a body field (nested ones too) or a query parameter. */
interface RestPlace {
  in: "body" | "query";
  path: (string | number)[];
  type: GraphQLInputType;
}

/** The GraphQL field a route runs, and its variables by name (as GraphQL types). */
function routeOperation(route: RestRoute, schema: GraphQLSchema): { field: GraphQLField<unknown, unknown>; variables: Map<string, GraphQLInputType> } {
  const op = parse(route.operation).definitions[0] as OperationDefinitionNode;
  const root = op.selectionSet.selections[0] as FieldNode;
  const parent = op.operation === "mutation" ? schema.getMutationType()! : schema.getQueryType()!;
  const variables = new Map(
    (op.variableDefinitions ?? []).map((v) => [v.variable.name.value, typeFromAST(schema, v.type as NamedTypeNode) as GraphQLInputType]),
  );
  return { field: parent.getFields()[root.name.value], variables };
}

/** Text fields whose valid value the field's name does not tell. */
const VALID_TEXT: Record<string, unknown> = {
  since: "2026-03-01T00:00:00.000Z",
  until: "2026-04-30",
  url: "https://93.184.215.14/hooks",
  permissions: ["timesheets:read"],
};

/** A value for a place, as a valid call would send it (the organization's records for ids, an enum's first value). */
function validValue(type: GraphQLInputType, name: string, idFor: (name: string) => string): unknown {
  const value = valueFromASTUntyped(parseValue(literalFor(type, name, idFor)));
  if (Object.hasOwn(VALID_TEXT, name)) return VALID_TEXT[name];
  if (value && typeof value === "object" && !Array.isArray(value))
    for (const key of Object.keys(value)) if (Object.hasOwn(VALID_TEXT, key)) (value as Record<string, unknown>)[key] = VALID_TEXT[key];
  return value;
}

/** Query strings are text: lists as comma-separated values, as the REST shim reads them. */
const asQueryText = (value: unknown): string =>
  Array.isArray(value) ? value.map(asQueryText).join(",") : typeof value === "string" ? value : JSON.stringify(value);

/**
 * The valid call of a route, as the isolation matrix and the null sweep make it: path parameters
 * from the organization's records, the body with every required field and every field carrying an
 * id (less what the path gives), required query parameters and those carrying ids; and every place
 * of the call one change can go.
 */
function validRestCall(route: RestRoute, schema: GraphQLSchema, ids: Record<string, string>): { base: RestCall; places: RestPlace[] } {
  const { field, variables } = routeOperation(route, schema);
  const idFor = (name: string) => recordIdFor(field, name, ids);
  const pathParams = new Set([...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  const base: RestCall = { body: {}, query: {} };
  const places: RestPlace[] = [];
  const others = [...variables].filter(([name]) => !pathParams.has(name));
  const wanted = (type: GraphQLInputType) => isNonNullType(type) || carriesId(type);
  const input = variables.get("input");
  if (input) {
    const fromPath = new Set(Object.values(route.inputFromPath ?? {}));
    base.body = validValue(input, "input", idFor) as Record<string, unknown>;
    for (const name of fromPath) delete base.body[name];
    places.push(
      ...placesIn(input, [])
        .filter((p) => !fromPath.has(String(p.path[0])))
        .map((p) => ({ in: "body" as const, ...p })),
    );
  } else if (route.method !== "GET" && route.method !== "DELETE") {
    // A write without `$input` takes its other variables from the body, as fields.
    for (const [name, type] of others) {
      if (wanted(type)) base.body[name] = validValue(type, name, idFor);
      places.push(...placesIn(type, [name]).map((p) => ({ in: "body" as const, ...p })));
    }
  } else {
    for (const [name, type] of others) {
      const key = route.list && Object.hasOwn(PAGE_PARAMETERS, name) ? PAGE_PARAMETERS[name] : name;
      if (wanted(type)) base.query[key] = asQueryText(validValue(type, name, idFor));
      places.push({ in: "query", path: [key], type });
    }
  }
  return { base, places: places.filter((p) => p.path.length > 0) };
}

/** The base call with `value` at `place`: the body field set (its parents made on the way), or the query parameter. */
function changedAt(base: RestCall, place: RestPlace, value: unknown): RestCall {
  const call = structuredClone(base);
  if (place.in === "body") setAt(call.body, place.path, value);
  else call.query[String(place.path[0])] = asQueryText(value);
  return call;
}

const edgeDates = ["2026-03-02", "2026-03-10", "2026-02-28", "2024-02-29", "2026-12-31", "1970-01-01", "2099-12-31"];
const edgeTimes = [
  "2026-03-02T09:00:00.000Z",
  "2026-03-02T00:00:00.000Z",
  "2026-03-02T23:59:59.999Z",
  "2026-03-29T01:30:00Z",
  "2024-02-29T12:00:00Z",
  "1970-01-01T00:00:00Z",
  "2099-12-31T23:59:59Z",
];
const anyDate = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true });
const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom("", " ", "Zoë Ångström 東京 🚀", "x".repeat(255), "x".repeat(5000), "'; DROP TABLE shifts; --"),
);

/**
 * A value for a REST place that mostly has the type it takes, so that the call gets past the body
 * and query checks to the operation: boundary numbers, every value of an enum, empty, long and
 * unicode text, the organization's other records for ids, dates and times at edges; now and then
 * null (where allowed) or a value of the wrong type.
 */
function restValue(place: RestPlace, ids: Record<string, string>): fc.Arbitrary<unknown> {
  const name = String(place.path.filter((p) => typeof p === "string").pop() ?? "");
  const typed = (type: GraphQLInputType): fc.Arbitrary<unknown> => {
    const inner = isNonNullType(type) ? type.ofType : type;
    const named = getNamedType(inner);
    if (isListType(inner)) return fc.array(typed(inner.ofType), { maxLength: 3 });
    if (named.name === "ID") return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...Object.values(ids)) }, { weight: 1, arbitrary: fc.uuid() });
    if (isEnumType(named)) return fc.constantFrom(...named.getValues().map((v) => v.name));
    if (named.name === "Int") return fc.oneof(fc.constantFrom(0, 1, -1, 15, 60, 1440, 2 ** 31 - 1, -(2 ** 31)), fc.integer({ min: 0, max: 1000 }));
    if (named.name === "Float") return fc.oneof(fc.constantFrom(0, 0.01, -0.01, 0.5, 8, 24, 999_999.99, 1e9), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
    if (named.name === "Boolean") return fc.boolean();
    if (named.name === "DateTimeISO" || (named.name === "String" && /time$/i.test(name)))
      return fc.oneof(
        fc.constantFrom(...edgeTimes),
        anyDate.map((d) => d.toISOString()),
      );
    if (named.name === "String" && /date$/i.test(name))
      return fc.oneof(
        fc.constantFrom(...edgeDates),
        anyDate.map((d) => d.toISOString().slice(0, 10)),
      );
    if (named.name === "String" && /zone$/i.test(name))
      return fc.constantFrom("UTC", "Europe/Berlin", "America/New_York", "Pacific/Kiritimati", "Asia/Kathmandu", "Mars/Olympus");
    if (isInputObjectType(named) || named.name === "JSONObject") return fc.constant({});
    return text;
  };
  const wrong = place.in === "query" ? hostileString.filter((s) => s.length < 2000) : hostileValue;
  const nullable = place.in === "body" && !isNonNullType(place.type);
  return fc.oneof(
    { weight: 8, arbitrary: typed(place.type) },
    { weight: 1, arbitrary: wrong },
    ...(nullable ? [{ weight: 1, arbitrary: fc.constant(null) }] : []),
  );
}

/**
 * Whether a REST answer came from the operation rather than from the shim's checks of the body and
 * query string at the door: a 2xx; a 4xx other than a refusal of the input (NOT_FOUND of a record,
 * CONFLICT, a rule's own code); or a VALIDATION_FAILED for a body the shim's own body check accepts
 * (a service's rule: a date range too long, an end before its start). A query parameter's
 * VALIDATION_FAILED is not told apart from the shim's reading of it, so the count is a floor.
 */
function reachedOperation(res: { status: number; body: { error?: { code?: string } } }, compiled: CompiledRoute, place: RestPlace, call: RestCall): boolean {
  if (res.status < 300) return true;
  if (res.status >= 500) return false;
  const code = String(res.body?.error?.code);
  if (code !== "VALIDATION_FAILED") return !["BAD_REQUEST", "UNSUPPORTED_MEDIA_TYPE"].includes(code) && !code.startsWith("QUERY_TOO_");
  if (place.in === "query") return false;
  const input = compiled.operation.variableDefinitions?.find((v) => v.variable.name.value === "input");
  const schema = graphqlSchema();
  const fromPath = Object.fromEntries(Object.values(compiled.route.inputFromPath ?? {}).map((field) => [field, "00000000-0000-0000-0000-000000000000"]));
  const type = input ? (typeFromAST(schema, input.type as NamedTypeNode) as GraphQLInputType) : compiled.bodyType && new GraphQLNonNull(compiled.bodyType);
  return Boolean(type) && checkBody(type!, input ? { ...call.body, ...fromPath } : call.body).length === 0;
}

describe("hostile input on every REST path and GraphQL mutation", () => {
  let t: TestService;
  let org: TestOrganization;
  let ids: Record<string, string>;

  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization("Fuzzed");
    ids = await victimRecords(t, org);
  });
  afterAll(() => t.stop());

  const auditRowsOf = async (requestId: string) =>
    Number((await t.runtime.db.query("SELECT count(*) AS n FROM audit_events WHERE organization_id = $1 AND request_id = $2", [org.id, requestId]))[0].n);
  const auditCount = async () => Number((await t.runtime.db.query("SELECT count(*) AS n FROM audit_events WHERE organization_id = $1", [org.id]))[0].n);

  it(
    "never answers a REST call 5xx, always answers the error body, writes nothing when it refuses, and most calls reach the operation",
    async () => {
      const schema = graphqlSchema();
      const problems: string[] = [];
      const statuses = new Map<number, number>();
      let calls = 0;
      let reached = 0;
      let validBases = 0;
      let auditedWrites = 0;
      // Deletions last, so that every other path still finds its records.
      const routes = restRoutes.filter((r) => r.auth !== "platform").sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
      for (const route of routes) {
        const method = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
        const path = fillPath(route.path, org.id, ids);
        const { base, places } = validRestCall(route, schema, ids);
        const [compiled] = compileRoutes(schema, [route]);
        const send = async (call: RestCall) => {
          const qs = new URLSearchParams(call.query).toString();
          // A body on every method, DELETE included (one path takes its input there).
          const res = await t.http[method](qs ? `${path}?${qs}` : path)
            .set("Authorization", `Bearer ${org.token}`)
            .send(call.body);
          const about = `${route.method} ${route.path} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)} for ${JSON.stringify(call).slice(0, 200)}`;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status >= 500) problems.push(about);
          // The token holds all along: only the path that takes no token refuses one.
          if (res.status === 401 && route.auth !== "none") problems.push(about);
          // The audit rows of this very request: calls that succeeded write in the background too (deliveries, accruals).
          const written = await auditRowsOf(String(res.headers["x-request-id"]));
          if (res.status >= 400) {
            if (typeof res.body?.error?.code !== "string" || typeof res.body.error.requestId !== "string" || !Array.isArray(res.body.error.details))
              problems.push(`${about}: without the error body`);
            if (written) problems.push(`${about}: but wrote a row`);
          } else if (written) auditedWrites++;
          return res;
        };
        if ((await send(base)).status < 300) validBases++;
        // A path without a body or query string has nothing to change: its valid call is all there is.
        if (!places.length) continue;
        const change = fc.constantFrom(...places).chain((place) => restValue(place, ids).map((value) => ({ place, value })));
        await fc.assert(
          fc.asyncProperty(change, async ({ place, value }) => {
            const res = await send(changedAt(base, place, value));
            calls++;
            if (reachedOperation(res, compiled, place, changedAt(base, place, value))) reached++;
          }),
          { numRuns: 12, seed: 20261123 },
        );
      }
      console.log(
        `REST fuzzing: ${routes.length} paths, ${validBases} answered their valid call 2xx; ${calls} changed calls, ${reached} reached the operation (${Math.round((100 * reached) / calls)} %); ${auditedWrites} answers 2xx wrote audit rows; answers by status ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
      );
      expect(problems.slice(0, 20)).toEqual([]);
      // Most calls changed at one place got past the body and query checks to the operation, and most
      // valid calls answered 2xx (the others meet the state earlier paths left: a locked day, a withdrawn
      // preference): a regression to "everything refused at the door" fails here.
      expect(reached / calls).toBeGreaterThan(0.6);
      expect(validBases / routes.length).toBeGreaterThan(0.75);
      // The audit trail names the requests that wrote, so "a refusal wrote nothing" can be seen.
      expect(auditedWrites).toBeGreaterThan(50);
    },
    SWEEP_TIMEOUT,
  );

  it(
    "never answers a GraphQL mutation with an internal error, writes nothing when it refuses, and most calls reach the resolver",
    async () => {
      const schema = graphqlSchema();
      const mutations = Object.values(schema.getMutationType()!.getFields())
        .filter((f) => f.name !== "createOrganization")
        // Deletions last, so that every other mutation still finds its records.
        .sort((a, b) => Number(a.name.startsWith("delete")) - Number(b.name.startsWith("delete")));
      const problems: string[] = [];
      let calls = 0;
      let executed = 0;
      let pastValidation = 0;
      for (const field of mutations) {
        const definitions = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(", ");
        const args = field.args.map((a) => `${a.name}: $${a.name}`).join(", ");
        const selection = isObjectType(getNamedType(field.type)) ? "{ __typename }" : "";
        const query = `mutation${definitions ? `(${definitions})` : ""} { ${field.name}${args ? `(${args})` : ""} ${selection} }`;
        // A valid call (the organization's records for ids, the first value of each enum), changed at one place.
        const base = validArguments(field, (name) => recordIdFor(field, name, ids));
        const places = field.args.flatMap((a) => placesIn(a.type, [a.name]));
        const change = places.length
          ? fc.constantFrom(...places).chain((place) => typedHostile(place.type, ids).map((value) => ({ place, value })))
          : fc.constant(undefined);
        await fc.assert(
          fc.asyncProperty(change, async (changed) => {
            const vars = structuredClone(base);
            if (changed) setAt(vars, changed.place.path, changed.value);
            const before = await auditCount();
            const res = await t.gql(org.token, query, vars);
            calls++;
            // An answer with `data` began execution, so the mutation's resolver ran: GraphQL leaves `data`
            // out when the document or its variables are refused before that.
            if (res.data !== undefined) executed++;
            const codes = (res.errors ?? []).map((e) => e.extensions?.code);
            if (!codes.some((c) => REFUSED_INPUT.includes(c))) pastValidation++;
            if (codes.includes("INTERNAL_SERVER_ERROR") || codes.some((c) => !c))
              problems.push(`${field.name}: ${JSON.stringify(res.errors).slice(0, 300)} for ${JSON.stringify(vars).slice(0, 200)}`);
            if (res.errors?.length && (await auditCount()) !== before) problems.push(`${field.name} refused but wrote a row`);
          }),
          { numRuns: 8, seed: 20261123 },
        );
      }
      console.log(
        `GraphQL fuzzing: ${calls} calls, ${executed} reached the mutation's resolver (${Math.round((100 * executed) / calls)} %), ${pastValidation} passed its input validation (${Math.round((100 * pastValidation) / calls)} %)`,
      );
      expect(problems.slice(0, 20)).toEqual([]);
      // Shaped as valid calls changed at one place, most must get past the schema's own checks; a
      // regression to "everything refused before the resolver" fails here.
      expect(executed / calls).toBeGreaterThan(0.75);
      expect(pastValidation / calls).toBeGreaterThan(0.4);
    },
    SWEEP_TIMEOUT,
  );
});
