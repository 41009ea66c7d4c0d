import fc from "fast-check";
import { getNamedType, isObjectType } from "graphql";
import { graphqlSchema, restRoutes } from "../../src/app/modules";
import { TestOrganization, TestService } from "../support/harness";
import { fillPath, victimRecords } from "../support/records";

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

describe("hostile input on every REST path", () => {
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
    expect(problems.slice(0, 20)).toEqual([]);
    // The token held all along, and the input reached the paths' validation rather than a guard.
    expect(statuses.get(401)).toBeUndefined();
    expect(statuses.get(400)).toBeGreaterThan(routes.length);
  });

  it("never answers a GraphQL mutation with an internal error, and writes nothing when it refuses", async () => {
    const schema = graphqlSchema();
    const mutations = Object.values(schema.getMutationType()!.getFields()).filter((f) => f.name !== "createOrganization");
    const problems: string[] = [];
    const id = fc.oneof(fc.constantFrom(...Object.values(ids)), hostileString);
    for (const field of mutations) {
      const definitions = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(", ");
      const args = field.args.map((a) => `${a.name}: $${a.name}`).join(", ");
      const selection = isObjectType(getNamedType(field.type)) ? "{ __typename }" : "";
      const query = `mutation${definitions ? `(${definitions})` : ""} { ${field.name}${args ? `(${args})` : ""} ${selection} }`;
      const variables = fc.record(Object.fromEntries(field.args.map((a) => [a.name, getNamedType(a.type).name === "ID" ? id : hostileValue])));
      await fc.assert(
        fc.asyncProperty(variables, async (vars) => {
          const before = await auditCount();
          const res = await t.gql(org.token, query, vars as Record<string, unknown>);
          const codes = (res.errors ?? []).map((e) => e.extensions?.code);
          if (codes.includes("INTERNAL_SERVER_ERROR") || codes.some((c) => !c)) problems.push(`${field.name}: ${JSON.stringify(res.errors).slice(0, 300)} for ${JSON.stringify(vars).slice(0, 200)}`);
          if (res.errors?.length && (await auditCount()) !== before) problems.push(`${field.name} refused but wrote a row`);
        }),
        { numRuns: 8, seed: 20261123 },
      );
    }
    expect(problems.slice(0, 20)).toEqual([]);
  });
});
