import fc from "fast-check";
import {
  getNamedType,
  GraphQLField,
  GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  parseValue,
  valueFromASTUntyped,
} from "graphql";
import { graphqlSchema, restRoutes } from "../../src/app/modules";
import { carriesId, literalFor } from "../support/graphql-arguments";
import { TestOrganization, TestService } from "../support/harness";
import { fillPath, recordIdFor, victimRecords } from "../support/records";

/**
 * Hostile input on every REST path and every GraphQL mutation: bodies built from each path's own
 * input fields (read from the OpenAPI document) and variables for each mutation's arguments, with
 * wrong types, nulls, huge strings and arrays, deep nesting, invalid dates and time zones, SQL and
 * script fragments and unknown fields. Never a 5xx or an internal error; a refusal always has the
 * error body (or code); and a refused request writes nothing (the audit trail would show it).
 */
const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.constantFrom("'; DROP TABLE shifts; --", "<script>alert(1)</script>", "2026-02-30", "2026-13-01T25:61:00Z", "Mars/Olympus", "not-a-uuid", "00000000-0000-0000-0000-000000000000", "\u0000", "\ud800", "NaN", "-1", "1e309", ""),
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
  const args = field.args.filter((a) => (isNonNullType(a.type) && a.defaultValue === undefined) || carriesId(a.type, a.name));
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
  else if (named.name === "DateTimeISO") typed = fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), hostileString);
  else if (isInputObjectType(named)) typed = fc.dictionary(fc.constantFrom(...Object.keys(named.getFields())), hostileValue, { maxKeys: 3 });
  else typed = hostileString;
  const arbitraries = [{ weight: 8, arbitrary: typed }, { weight: 1, arbitrary: hostileValue }];
  return fc.oneof(...arbitraries, ...(isNonNullType(type) ? [] : [{ weight: 1, arbitrary: fc.constant(null) }]));
}

describe("hostile input on every REST path and GraphQL mutation", () => {
  let t: TestService;
  let org: TestOrganization;
  let ids: Record<string, string>;
  let doc: { paths: Record<string, Record<string, { requestBody?: { content: { "application/json": { schema: { $ref?: string } } } } }>>; components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };

  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization("Fuzzed");
    ids = await victimRecords(t, org);
    doc = (await t.http.get("/api/openapi.json")).body;
  });
  afterAll(() => t.stop());

  const auditCount = async () => Number((await t.runtime.db.query("SELECT count(*) AS n FROM audit_events WHERE organization_id = $1", [org.id]))[0].n);

  function fieldsOf(path: string, method: string): string[] {
    const ref = doc.paths[path]?.[method]?.requestBody?.content["application/json"].schema.$ref;
    return ref ? Object.keys(doc.components.schemas[ref.split("/").pop()!].properties ?? {}) : [];
  }

  it("never answers 5xx, always answers the error body, and writes nothing when it refuses", async () => {
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    // Deletions last, so that every other path still finds its records.
    const routes = restRoutes.filter((r) => r.auth !== "platform").sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
    for (const route of routes) {
      const method = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
      const path = fillPath(route.path, org.id, ids);
      const fields = fieldsOf(route.path, method);
      const body = fc.dictionary(fc.oneof(fc.constantFrom(...(fields.length ? fields : ["id"])), hostileString), hostileValue, { maxKeys: 6 });
      const query = fc.dictionary(fc.constantFrom("startDate", "endDate", "limit", "cursor", "locationId", "workerId", "fetchAllStatuses", "format"), hostileString.filter((s) => s.length < 2000), { maxKeys: 3 });
      await fc.assert(
        fc.asyncProperty(body, query, async (b, q) => {
          const before = await auditCount();
          const qs = new URLSearchParams(q as Record<string, string>).toString();
          const res = await t.as(org.token)[method](qs ? `${path}?${qs}` : path, b as object);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status >= 500) problems.push(`${route.method} ${route.path} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)} for ${JSON.stringify(b).slice(0, 200)}`);
          if (res.status >= 400) {
            if (typeof res.body?.error?.code !== "string" || typeof res.body.error.requestId !== "string") problems.push(`${route.method} ${route.path} → ${res.status} without the error body`);
            if ((await auditCount()) !== before) problems.push(`${route.method} ${route.path} → ${res.status} but wrote a row`);
          }
        }),
        { numRuns: 12, seed: 20261123 },
      );
    }
    console.log(`REST fuzzing: answers by status ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
    expect(problems.slice(0, 20)).toEqual([]);
    // The token held all along, and the input reached the paths' validation rather than a guard.
    expect(statuses.get(401)).toBeUndefined();
    expect(statuses.get(400)).toBeGreaterThan(routes.length);
  }, SWEEP_TIMEOUT);

  it("never answers a GraphQL mutation with an internal error, writes nothing when it refuses, and most calls reach the resolver", async () => {
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
      const change = places.length ? fc.constantFrom(...places).chain((place) => typedHostile(place.type, ids).map((value) => ({ place, value }))) : fc.constant(undefined);
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
          if (codes.includes("INTERNAL_SERVER_ERROR") || codes.some((c) => !c)) problems.push(`${field.name}: ${JSON.stringify(res.errors).slice(0, 300)} for ${JSON.stringify(vars).slice(0, 200)}`);
          if (res.errors?.length && (await auditCount()) !== before) problems.push(`${field.name} refused but wrote a row`);
        }),
        { numRuns: 8, seed: 20261123 },
      );
    }
    console.log(`GraphQL fuzzing: ${calls} calls, ${executed} reached the mutation's resolver (${Math.round((100 * executed) / calls)} %), ${pastValidation} passed its input validation (${Math.round((100 * pastValidation) / calls)} %)`);
    expect(problems.slice(0, 20)).toEqual([]);
    // Shaped as valid calls changed at one place, most must get past the schema's own checks; a
    // regression to "everything refused before the resolver" fails here.
    expect(executed / calls).toBeGreaterThan(0.75);
    expect(pastValidation / calls).toBeGreaterThan(0.4);
  }, SWEEP_TIMEOUT);
});
