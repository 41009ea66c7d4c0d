import net from "node:net";
import {
  getNamedType,
  GraphQLField,
  GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  OperationDefinitionNode,
  parse,
} from "graphql";
import { PUBLIC_BODY_MAX_BYTES } from "../../src/graphql/request-guard";
import { graphqlSchema, restRoutes } from "../../src/app/modules";
import { carriesId, literalFor, SCALAR_LITERALS, selectionOf, stringFor } from "../support/graphql-arguments";
import { TestOrganization, TestService } from "../support/harness";
import { fillPath, recordIdFor, victimRecords } from "../support/records";

const NUL = "a\u0000b";

/**
 * A JSON value for `type`: required fields and every field carrying an id filled as a valid call
 * would, and each other field `extra(type)` (null, or text with a NUL in it) where it can take it.
 */
function valueFor(type: GraphQLInputType, name: string, idFor: (name: string) => string, extra: (t: GraphQLInputType) => unknown, description = ""): unknown {
  if (isNonNullType(type)) return valueFor(type.ofType, name, idFor, extra, description);
  if (isListType(type)) return [valueFor(type.ofType, name, idFor, extra, description)];
  if (getNamedType(type).name === "ID") return idFor(name);
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const value: Record<string, unknown> = {};
    for (const f of Object.values(type.getFields())) {
      const filled = isNonNullType(f.type) || carriesId(f.type);
      const other = filled ? undefined : extra(f.type);
      value[f.name] = other !== undefined ? other : filled ? valueFor(f.type, f.name, idFor, extra, f.description ?? "") : undefined;
      if (value[f.name] === undefined) delete value[f.name];
    }
    return value;
  }
  if (isScalarType(type) && type.name === "String") return stringFor(name, description);
  return JSON.parse(SCALAR_LITERALS[type.name]);
}

/** Explicit null on a nullable field; a NUL in every plain text field. */
const nullForNullable = (t: GraphQLInputType) => (isNonNullType(t) ? undefined : null);
const nulInText = (t: GraphQLInputType) => (getNamedType(t).name === "String" && !isListType(isNonNullType(t) ? t.ofType : t) ? NUL : undefined);

describe("hostile input that reaches every operation", () => {
  let t: TestService;
  let org: TestOrganization;
  let ids: Record<string, string>;
  const schema = graphqlSchema();

  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization("Hostile");
    ids = await victimRecords(t, org);
  });
  afterAll(() => t.stop());

  const auditCount = async () => Number((await t.runtime.db.query("SELECT count(*) AS n FROM audit_events WHERE organization_id = $1", [org.id]))[0].n);

  /** The GraphQL field a REST route runs, and the type of its `$input`. */
  function routeOperation(operation: string): { field: GraphQLField<unknown, unknown>; input?: GraphQLInputType } {
    const op = parse(operation).definitions[0] as OperationDefinitionNode;
    const root = op.selectionSet.selections[0];
    const parent = op.operation === "mutation" ? schema.getMutationType()! : schema.getQueryType()!;
    const field = parent.getFields()[(root as { name: { value: string } }).name.value];
    return { field, input: field.args.find((a) => a.name === "input")?.type };
  }

  /** A REST call with the organization's token; a body on every method, DELETE included. */
  const call = (method: string, path: string, body?: object) =>
    t.http[method.toLowerCase() as "post"](path)
      .set("Authorization", `Bearer ${org.token}`)
      .send(body ?? {});

  // Deletions last, so that every other path still finds its records.
  const routes = () => restRoutes.filter((r) => r.auth !== "platform").sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));

  it("REST: explicit null on every nullable body field is never a 5xx, and a refusal writes nothing", async () => {
    const problems: string[] = [];
    let tried = 0;
    for (const route of routes()) {
      const { field, input } = routeOperation(route.operation);
      if (!input || !isInputObjectType(getNamedType(input))) continue;
      const body = valueFor(input, "input", (name) => recordIdFor(field, name, ids), nullForNullable) as Record<string, unknown>;
      for (const param of Object.keys(route.inputFromPath ?? {})) delete body[route.inputFromPath![param]];
      const before = await auditCount();
      const res = await call(route.method, fillPath(route.path, org.id, ids), body);
      tried++;
      if (res.status >= 500) problems.push(`${route.method} ${route.path} → ${res.status} ${JSON.stringify(res.body)} for ${JSON.stringify(body)}`);
      if (res.status >= 400 && (await auditCount()) !== before) problems.push(`${route.method} ${route.path} → ${res.status} but wrote`);
    }
    expect(problems).toEqual([]);
    expect(tried).toBeGreaterThan(30);
  });

  it("REST: explicit null agrees with the OpenAPI document on every field of every body, nested ones included", async () => {
    type Schema = { $ref?: string; type?: string | string[]; anyOf?: Schema[]; properties?: Record<string, Schema>; items?: Schema };
    const doc = (await t.http.get("/api/openapi.json")).body as {
      paths: Record<string, Record<string, { requestBody?: { content: { "application/json": { schema: Schema } } } }>>;
      components: { schemas: Record<string, Schema> };
    };
    const resolved = (s: Schema): Schema => (s.$ref ? doc.components.schemas[s.$ref.split("/").pop()!] : s);
    const nullable = (s: Schema) => (Array.isArray(s.type) && s.type.includes("null")) || Boolean(s.anyOf?.some((a) => a.type === "null"));
    /** The object (or list of objects) schema under a possibly nullable one. */
    const inner = (s: Schema): Schema => resolved(s.anyOf ? s.anyOf.find((a) => a.type !== "null")! : s);
    const problems: string[] = [];
    let accepted = 0;
    let refused = 0;
    for (const route of routes()) {
      const method = route.method.toLowerCase();
      const bodySchema = doc.paths[route.path]?.[method]?.requestBody?.content["application/json"].schema;
      if (!bodySchema) continue;
      const { field } = routeOperation(route.operation);
      const idFor = (name: string) => recordIdFor(field, name, ids);
      const fill = (type: GraphQLInputType, name: string, description?: string | null) => valueFor(type, name, idFor, () => undefined, description ?? "");
      // The body's fields as GraphQL types: those of $input (less what the path gives), else the operation's other arguments.
      const input = field.args.find((a) => a.name === "input");
      const named = input && getNamedType(input.type);
      const fromPath = Object.values(route.inputFromPath ?? {});
      const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const fields = (isInputObjectType(named) ? Object.values(named.getFields()) : field.args.filter((a) => !pathParams.includes(a.name))).filter(
        (f) => !fromPath.includes(f.name),
      );
      const base = Object.fromEntries(
        fields.filter((f) => isNonNullType(f.type) || carriesId(f.type)).map((f) => [f.name, fill(f.type, f.name, f.description)]),
      );
      /** Sends `base` with the field at `path` null, its parents filled as a valid body would be. */
      const probe = async (path: { name: string; type: GraphQLInputType; description?: string | null; list: boolean }[], schema: Schema) => {
        const body = structuredClone(base) as Record<string, unknown>;
        let at: Record<string, unknown> = body;
        for (const step of path.slice(0, -1)) {
          at[step.name] ??= fill(step.type, step.name, step.description);
          at = (step.list ? (at[step.name] as unknown[])[0] : at[step.name]) as Record<string, unknown>;
        }
        const leaf = path[path.length - 1].name;
        at[leaf] = null;
        const name = path.map((s, i) => `${s.name}${s.list && i < path.length - 1 ? "[0]" : ""}`).join(".");
        const send = () => call(route.method, fillPath(route.path, org.id, ids), body);
        const about = (res: { body: { error?: { details?: { field: string; message: string }[] } } }) =>
          (res.body?.error?.details ?? []).filter((d) => d.field === name).map((d) => d.message);
        const res = await send();
        const said = `${route.method} ${route.path} ${name}: null → ${res.status} ${JSON.stringify(res.body?.error ?? "").slice(0, 160)}`;
        if (res.status >= 500) problems.push(said);
        else if (nullable(schema)) {
          // A 400 naming the field is fine only when it is what leaving the field out answers too (null read as "not given").
          if (res.status === 400 && about(res).length) {
            delete at[leaf];
            const absent = await send();
            if (absent.status !== 400 || JSON.stringify(about(absent)) !== JSON.stringify(about(res)))
              problems.push(`${said} (the document says nullable; left out → ${absent.status})`);
          } else accepted++;
        } else if (res.status !== 400 || !about(res).length) problems.push(`${said} (the document says not nullable)`);
        else refused++;
      };
      const walk = async (
        objectSchema: Schema,
        typeFields: readonly { name: string; type: GraphQLInputType; description?: string | null }[],
        parents: Parameters<typeof probe>[0],
        seen: Set<string>,
      ) => {
        for (const f of typeFields) {
          const schema = objectSchema.properties?.[f.name];
          if (!schema) continue;
          const list = isListType(isNonNullType(f.type) ? f.type.ofType : f.type);
          const path = [...parents, { name: f.name, type: f.type, description: f.description, list }];
          await probe(path, schema);
          const nested = getNamedType(f.type);
          if (isInputObjectType(nested) && !seen.has(nested.name)) {
            const nestedSchema = inner(schema);
            await walk(list ? inner(nestedSchema.items!) : nestedSchema, Object.values(nested.getFields()), path, new Set([...seen, nested.name]));
          }
        }
      };
      await walk(resolved(bodySchema), fields, [], new Set());
    }
    expect(problems).toEqual([]);
    // Both answers were seen many times: the sweep reached the fields rather than failing before them.
    expect(accepted).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(50);
  });

  it("REST: null clears a field that may be empty, and a create reads it as not given", async () => {
    const base = `/api/organizations/${org.id}`;
    const cleared = async (path: string, field: string, value: unknown) => {
      expect((await t.as(org.token).patch(path, { [field]: value })).body[field]).toEqual(value);
      const res = await t.as(org.token).patch(path, { [field]: null });
      expect([path, field, res.status, res.body[field]]).toEqual([path, field, 200, null]);
      expect((await t.as(org.token).get(path)).body[field]).toBeNull();
    };
    await cleared(`${base}/locations/${ids.location}`, "externalId", "LOC-1");
    await cleared(`${base}/staff/${ids.staff}`, "payrollId", "PAY-1");
    await cleared(`${base}/roles/${ids.role}`, "hourlyWage", 21.5);
    await cleared(`${base}/locations/${ids.location}/schedules/drafts/${ids.draft}`, "note", "Bring boots");
    // On a create, null is the field left out: the default applies.
    const breakType = await t.as(org.token).post(`${base}/locations/${ids.location}/breaks`, { name: "Rest", durationMinutes: 10, paid: null, enabled: null });
    expect([breakType.status, breakType.body.paid, breakType.body.enabled]).toEqual([201, false, true]);
  });

  it("REST: a NUL in any body text, query parameter or path parameter is a 400 naming it, and writes nothing", async () => {
    const problems: string[] = [];
    const doc = (await t.http.get("/api/openapi.json")).body as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
    for (const route of routes()) {
      const method = route.method.toLowerCase() as "post";
      const path = fillPath(route.path, org.id, ids);
      const expectRefusal = async (
        res: { status: number; body: { error?: { code: string; details: { field: string }[]; requestId: string } } },
        field: string,
        what: string,
      ) => {
        const detail = res.body.error?.details?.[0]?.field;
        if (res.status !== 400 || res.body.error?.code !== "VALIDATION_FAILED" || detail !== field || !res.body.error.requestId) {
          problems.push(`${route.method} ${route.path} ${what} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        }
      };
      const before = await auditCount();
      const { field, input } = routeOperation(route.operation);
      if (input && isInputObjectType(getNamedType(input))) {
        const type = getNamedType(input);
        const textField =
          isInputObjectType(type) &&
          Object.values(type.getFields()).find((f) => nulInText(f.type) !== undefined && !Object.values(route.inputFromPath ?? {}).includes(f.name));
        if (textField) {
          const body = valueFor(input, "input", (name) => recordIdFor(field, name, ids), nullForNullable) as Record<string, unknown>;
          body[textField.name] = NUL;
          for (const param of Object.keys(route.inputFromPath ?? {})) delete body[route.inputFromPath![param]];
          await expectRefusal(await call(method, path, body), textField.name, `body ${textField.name}`);
        }
      }
      for (const param of doc.paths[route.path]?.[method]?.parameters ?? []) {
        if (param.in === "query") await expectRefusal(await call(method, `${path}?${param.name}=a%00b`), param.name, `query ${param.name}`);
      }
      const lastParam = /\{(\w+)\}$/.exec(route.path);
      if (lastParam) await expectRefusal(await call(method, path.replace(/[^/]+$/, "a%00b")), "path", "path");
      if ((await auditCount()) !== before) problems.push(`${route.method} ${route.path} wrote on a refusal`);
    }
    expect(problems).toEqual([]);
  });

  it("GraphQL: explicit null on every nullable input field of every mutation is never an internal error, and a refusal writes nothing", async () => {
    const problems: string[] = [];
    const mutations = Object.values(schema.getMutationType()!.getFields()).filter((f) => f.name !== "createOrganization");
    for (const field of [...mutations].sort((a, b) => Number(a.name.startsWith("delete")) - Number(b.name.startsWith("delete")))) {
      const definitions = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(", ");
      const args = field.args.map((a) => `${a.name}: $${a.name}`).join(", ");
      const query = `mutation${definitions ? `(${definitions})` : ""} { ${field.name}${args ? `(${args})` : ""} ${selectionOf(field.type, 0)} }`;
      const idFor = (name: string) => recordIdFor(field, name, ids);
      const variables = Object.fromEntries(
        field.args.map((a) => [a.name, isNonNullType(a.type) || carriesId(a.type) ? valueFor(a.type, a.name, idFor, nullForNullable) : null]),
      );
      const before = await auditCount();
      const res = await t.gql(org.token, query, variables);
      const codes = (res.errors ?? []).map((e) => e.extensions?.code);
      if (codes.includes("INTERNAL_SERVER_ERROR") || codes.some((c) => !c))
        problems.push(`${field.name}: ${JSON.stringify(res.errors)} for ${JSON.stringify(variables)}`);
      if (res.errors?.length && (await auditCount()) !== before) problems.push(`${field.name} refused but wrote`);
    }
    expect(problems).toEqual([]);
  });

  it("GraphQL: a NUL in a variable or in an inline string literal is a 400 naming the field, and writes nothing", async () => {
    const problems: string[] = [];
    const mutations = Object.values(schema.getMutationType()!.getFields()).filter((f) => f.name !== "createOrganization");
    const before = await auditCount();
    for (const field of mutations) {
      const input = field.args.find((a) => a.name === "input");
      const type = input && getNamedType(input.type);
      const text = isInputObjectType(type) ? Object.values(type.getFields()).find((f) => nulInText(f.type) !== undefined) : undefined;
      if (!input || !text) continue;
      const idFor = (name: string) => recordIdFor(field, name, ids);
      const value = valueFor(input.type, "input", idFor, () => undefined) as Record<string, unknown>;
      value[text.name] = NUL;
      const others = field.args.filter((a) => a !== input);
      const definitions = [`$input: ${input.type.toString()}`, ...others.map((a) => `$${a.name}: ${a.type.toString()}`)].join(", ");
      const call = [`input: $input`, ...others.map((a) => `${a.name}: $${a.name}`)].join(", ");
      const variables = { input: value, ...Object.fromEntries(others.map((a) => [a.name, valueFor(a.type, a.name, idFor, () => undefined)])) };
      const byVariable = await t.http
        .post("/graphql")
        .set("Authorization", `Bearer ${org.token}`)
        .send({ query: `mutation(${definitions}) { ${field.name}(${call}) ${selectionOf(field.type, 0)} }`, variables });
      if (byVariable.status !== 400 || byVariable.body.errors?.[0]?.extensions?.details?.[0]?.field !== `input.${text.name}`)
        problems.push(`${field.name} variable → ${byVariable.status} ${JSON.stringify(byVariable.body).slice(0, 200)}`);
      const literal = literalFor(input.type, "input", idFor).replace(/^\{/, `{ ${text.name}: "a\\u0000b",`);
      const inline = await t.http
        .post("/graphql")
        .set("Authorization", `Bearer ${org.token}`)
        .send({
          query: `mutation { ${field.name}(input: ${literal}${others.length ? `, ${others.map((a) => `${a.name}: ${literalFor(a.type, a.name, idFor)}`).join(", ")}` : ""}) ${selectionOf(field.type, 0)} }`,
        });
      if (
        inline.status !== 400 ||
        inline.body.errors?.[0]?.extensions?.details?.[0]?.field !== `input.${text.name}` ||
        !inline.body.errors[0].extensions.requestId
      ) {
        problems.push(`${field.name} literal → ${inline.status} ${JSON.stringify(inline.body).slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(await auditCount()).toBe(before);
  });

  it("refuses a lone UTF-16 surrogate as it refuses a NUL", async () => {
    const res = await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name: "a\ud800b", timezone: "UTC" });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: "name" })]);
  });

  it("a tampered cursor is refused on both interfaces (REST 400), on lists sorted by time, by name and by sequence", async () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const lists = [
      `/api/organizations/${org.id}/staff`,
      `/api/organizations/${org.id}/time-off-requests`,
      `/api/organizations/${org.id}/audit-events`,
      `/api/organizations/${org.id}/locations/${ids.location}/schedules?startDate=2026-03-01&endDate=2026-03-31`,
    ];
    for (const list of lists) {
      const timeSorted = !list.endsWith("/staff");
      for (const cursor of [
        b64([null, null]),
        b64([{}, ids.staff]),
        b64(["x", "not-an-id"]),
        b64([1]),
        "garbage!!",
        b64({}),
        ...(timeSorted ? [b64(["not a date", ids.staff])] : []),
      ]) {
        const res = await t.as(org.token).get(`${list}${list.includes("?") ? "&" : "?"}cursor=${cursor}`);
        expect([list, cursor, res.status, res.body.error?.code, res.body.error?.details?.[0]?.field]).toEqual([
          list,
          cursor,
          400,
          "VALIDATION_FAILED",
          "cursor",
        ]);
      }
    }
    // GraphQL's `after` refuses the same cursors with the same code.
    for (const field of ["staffMembers", "timeOffRequests", "auditEvents"]) {
      for (const cursor of [b64([null, null]), "garbage!!", ...(field === "staffMembers" ? [] : [b64(["not a date", ids.staff])])]) {
        const res = await t.gql(org.token, `query($after: String) { ${field}(first: 1, after: $after) { nodes { id } } }`, { after: cursor });
        expect([field, cursor, res.errors?.[0]?.extensions?.code, res.data?.[field] ?? null]).toEqual([field, cursor, "VALIDATION_FAILED", null]);
      }
    }
    // A cursor the service handed out still works.
    const first = await t.as(org.token).get(`/api/organizations/${org.id}/audit-events?limit=1`);
    const next = await t.as(org.token).get(`/api/organizations/${org.id}/audit-events?limit=1&cursor=${first.headers["x-next-cursor"]}`);
    expect(next.status).toBe(200);
    expect(next.body).toHaveLength(1);
  });

  it("REST: a lone value where a list is expected is a 400 naming the field, in every list field of every body", async () => {
    const problems: string[] = [];
    for (const route of routes()) {
      const { field, input } = routeOperation(route.operation);
      const type = input && getNamedType(input);
      if (!isInputObjectType(type)) continue;
      for (const f of Object.values(type.getFields())) {
        if (!isListType(isNonNullType(f.type) ? f.type.ofType : f.type)) continue;
        const body = valueFor(
          input!,
          "input",
          (name) => recordIdFor(field, name, ids),
          () => undefined,
        ) as Record<string, unknown>;
        body[f.name] = "x";
        const res = await call(route.method, fillPath(route.path, org.id, ids), body);
        if (res.status !== 400 || res.body.error?.details?.[0]?.field !== f.name)
          problems.push(`${route.method} ${route.path} ${f.name} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
    const bulk = await t
      .as(org.token)
      .post(`/api/organizations/${org.id}/locations/${ids.location}/open-shifts/preferences/bulk-assign`, { preferenceIds: "x" });
    expect(bulk.status).toBe(400);
  });

  it("REST: malformed paths, query strings and bodies are a 400 with the error body, in REST words", async () => {
    const base = `/api/organizations/${org.id}`;
    const refused = async (what: string, res: { status: number; body: { error?: { code: string; requestId: string } } }) => {
      expect([what, res.status, typeof res.body.error?.code, typeof res.body.error?.requestId]).toEqual([what, 400, "string", "string"]);
    };
    for (const segment of ["%00", "%C0%80", "%FF", "%E0%A4", "%ED%A0%80", "%"]) {
      await refused(`path ${segment}`, await t.as(org.token).get(`${base}/locations/${segment}`));
      await refused(`org ${segment}`, await t.as(org.token).get(`/api/organizations/${segment}/locations`));
    }
    for (const query of [
      "limit=1&limit=2",
      "roleId[]=x",
      "a[b]=1",
      "roleId[a]=1",
      "cursor=a&cursor=b",
      "__proto__=1",
      "limit=99999999999",
      "limit=-1",
      "locationId=%FF",
    ]) {
      await refused(query, await t.as(org.token).get(`${base}/staff?${query}`));
    }
    // The page arguments are named as the query string names them, never as GraphQL does.
    for (const [query, field] of [
      ["limit=99999999999", "limit"],
      ["limit=0", "limit"],
      ["cursor=abc", "cursor"],
    ]) {
      const res = await t.as(org.token).get(`${base}/staff?${query}`);
      expect([query, res.body.error.details.map((d: { field: string }) => d.field), /first|after/.test(res.body.error.message)]).toEqual([
        query,
        [field],
        false,
      ]);
    }
    const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    const bodies = [
      "null",
      "5",
      '"x"',
      "[]",
      '[{"name":"x"}]',
      "true",
      deep(10_000),
      `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`,
      `{"name":${deep(10_000)},"timezone":"UTC"}`,
      '{"name":"x","timezone":"UTC","__proto__":{"admin":true}}',
      '{"name":"x","timezone":"UTC","constructor":{"prototype":{"admin":true}}}',
    ];
    for (const body of bodies) {
      for (const [method, path] of [
        ["post", `${base}/locations`],
        ["patch", `${base}/locations/${ids.location}`],
      ] as const) {
        const res = await t.http[method](path).set("Authorization", `Bearer ${org.token}`).set("Content-Type", "application/json").send(body);
        await refused(`${method} ${body.slice(0, 40)}`, res);
      }
    }
    expect((await t.as(org.token).get(`${base}/locations/${ids.location}`)).body).not.toHaveProperty("admin");
  });

  it("answers the JSON error body on every path outside /api and /graphql", async () => {
    for (const path of ["/", "/nothing", "/graphiql/nothing.js", "/healthz/x"]) {
      const res = await t.http.get(path);
      expect([path, res.status, res.type, res.body.error?.code, typeof res.body.error?.requestId]).toEqual([
        path,
        404,
        "application/json",
        "NOT_FOUND",
        "string",
      ]);
    }
    const posted = await t.http.post("/somewhere").send({ a: 1 });
    expect([posted.status, posted.body.error?.code]).toEqual([404, "NOT_FOUND"]);
  });

  describe("GraphQL request-level errors", () => {
    const post = (body: unknown, token: string | null = org.token) => {
      const req = t.http.post("/graphql").set("Content-Type", "application/json");
      if (token) req.set("Authorization", `Bearer ${token}`);
      return req.send(body as object);
    };
    const expect400 = (res: { status: number; body: { errors?: { extensions: { code: string; requestId: string } }[] } }, code: string) => {
      expect([res.status, res.body.errors?.[0]?.extensions?.code, typeof res.body.errors?.[0]?.extensions?.requestId]).toEqual([400, code, "string"]);
    };

    it("answers an operation name that names no operation, or none where there are several, with 400 and the request id", async () => {
      const two = "query A { organization { id } } query B { organization { name } }";
      expect400(await post({ query: two }), "BAD_REQUEST");
      expect400(await post({ query: two, operationName: "C" }), "BAD_REQUEST");
      expect400(await post({ query: "{ organization { id } }", operationName: "Missing" }), "BAD_REQUEST");
      // Once an operation of the document ran (and was compiled and kept), another name is still a 400.
      const ok = await post({ query: two, operationName: "A" });
      expect(ok.body.data.organization.id).toBe(org.id);
      expect400(await post({ query: two, operationName: "Z" }), "BAD_REQUEST");
      expect400(await post({ query: two }), "BAD_REQUEST");
    });

    it("answers batching, a query that is not text and a parse error with 400 and the request id", async () => {
      expect400(await post([{ query: "{ organization { id } }" }]), "BAD_REQUEST");
      expect400(await post({ query: 5 }), "BAD_REQUEST");
      expect400(await post({ variables: {} }), "BAD_REQUEST");
      expect400(await post({ query: "{ organization { id " }), "GRAPHQL_PARSE_FAILED");
      expect400(await post({ query: "{ organization { nope } }" }), "BAD_REQUEST");
    });

    it("answers odd variables, extensions, operation names and operation kinds with 400 and the request id, on POST and GET", async () => {
      for (const token of [org.token, null]) {
        // Without a token only a text naming a public operation is read this far.
        const q = token ? "{ organization { id } }" : 'mutation { exchangeToken(input: { apiKey: "x" }) { accessToken } }';
        for (const variables of ["{}", "{", [1], 5, true]) expect400(await post({ query: q, variables }, token), "BAD_REQUEST");
        for (const extensions of ["x", [1], 5]) expect400(await post({ query: q, extensions }, token), "BAD_REQUEST");
        for (const operationName of [5, { a: 1 }, ["A"]]) expect400(await post({ query: q, operationName }, token), "BAD_REQUEST");
        // Without a token a body over PUBLIC_BODY_MAX_BYTES is not read at all (the test below): a long name under it.
        expect400(await post({ query: q, operationName: "x".repeat(token ? 500_000 : PUBLIC_BODY_MAX_BYTES / 2) }, token), "BAD_REQUEST");
        expect400(await post({ query: q.replace(/^(mutation)?/, "subscription") }, token), "BAD_REQUEST");
        expect400(await post([]), "BAD_REQUEST");
      }
      const huge = await post({ query: "{ organization { id } }", operationName: "x".repeat(500_000) });
      expect(huge.text.length).toBeLessThan(2_000);
      const get = (query: string) =>
        t.http.get(`/graphql?${query}`).set("Authorization", `Bearer ${org.token}`).set("Accept", "application/json").set("apollo-require-preflight", "1");
      const text = encodeURIComponent("{ organization { id } }");
      for (const query of [
        "",
        "query=1&query=2",
        "query[a]=1",
        `query=${text}&variables=%7B`,
        `query=${text}&variables=5`,
        `query=${text}&variables=%5B%5D`,
        `query=${text}&extensions=x`,
        `query=${text}&operationName=X`,
        `query=${text}&operationName=A&operationName=B`,
        "query=%7B",
        "query=%FF",
      ]) {
        const res = await get(query);
        expect([query, res.status, typeof res.body.errors?.[0]?.extensions?.requestId]).toEqual([query, 400, "string"]);
      }
      expect((await get(`query=${text}&variables=%7B%7D`)).body.data.organization.id).toBe(org.id);
    });

    it("lets an anonymous request reach only the public operations; introspection needs a token", async () => {
      const anonymous = await post({ query: "{ __schema { queryType { name } } }" }, null);
      expect([anonymous.status, anonymous.body.errors?.[0]?.extensions?.code]).toEqual([401, "UNAUTHENTICATED"]);
      const typeByName = await post({ query: '{ __type(name: "Organization") { name } }' }, null);
      expect(typeByName.status).toBe(401);
      const other = await post({ query: 'mutation { createLocation(input: { name: "x", timezone: "UTC" }) { id } }' }, null);
      expect(other.status).toBe(401);
      const exchange = await post({ query: `mutation { exchangeToken(input: { apiKey: "${org.apiKey}" }) { accessToken } }` }, null);
      expect(typeof exchange.body.data.exchangeToken.accessToken).toBe("string");
      const withToken = await post({ query: "{ __schema { queryType { name } } }" });
      expect(withToken.body.data.__schema.queryType.name).toBe("Query");
      // The schema itself stays public in its committed and REST forms.
      expect((await t.http.get("/api/openapi.json")).status).toBe(200);
    });

    it("refuses a body without a token unread when it is longer than a public operation's can be", async () => {
      // Not even JSON: read, it is refused as malformed; unread, as a call without a token.
      const long = `{"query": "${"x".repeat(PUBLIC_BODY_MAX_BYTES)}`;
      const anonymous = await post(long, null);
      expect([anonymous.status, anonymous.body.errors[0].extensions.code, typeof anonymous.body.errors[0].extensions.requestId]).toEqual([
        401,
        "UNAUTHENTICATED",
        "string",
      ]);
      expect(anonymous.headers["www-authenticate"]).toBe('Bearer realm="api"');
      expect((await post(long)).status).toBe(400);
      expect((await post('{"query": "x', null)).status).toBe(400);
    });

    it("refuses oversized documents before validating them, with or without a token", async () => {
      const repeated = (n: number) => `{ organization { ${"name ".repeat(n)} } }`;
      // Without a token the text must also be short enough to be a public operation: many tokens in few characters.
      const tooLong = `mutation { exchangeToken(input: { apiKey: "x" }) { accessToken ${"@".repeat(6_000)} } }`;
      for (const [token, query] of [
        [org.token, repeated(50_000)],
        [null, tooLong],
      ]) {
        const res = await post({ query }, token);
        expect([res.status, res.body.errors[0].extensions.code, res.body.errors[0].locations]).toEqual([
          400,
          "GRAPHQL_PARSE_FAILED",
          [{ line: 1, column: expect.any(Number) }],
        ]);
        expect(res.body.errors[0].message).toMatch(/5000 tokens/);
      }
      // Without a token, a document that names neither public operation, or is longer than one can be, is refused before it is read.
      expect((await post({ query: repeated(50_000) }, null)).status).toBe(401);
      expect((await post({ query: `mutation { exchangeToken(input: { apiKey: "x" }) { ${"accessToken ".repeat(50_000)} } }` }, null)).status).toBe(401);
      expect((await post({ query: `{ organization { name ${"@".repeat(6_000)} } } # exchangeToken` }, null)).body.errors[0].extensions.code).toBe(
        "GRAPHQL_PARSE_FAILED",
      );
      // Nesting under a field that has no such selections (unknown, or a leaf) counts as nesting: refused as too deep before validation.
      expect400(await post({ query: `${"{ organization ".repeat(30)}${"}".repeat(30)}` }), "QUERY_TOO_DEEP");
      expect400(
        await post({ query: `mutation { exchangeToken(input: { apiKey: "x" }) ${"{ accessToken ".repeat(30)}${"}".repeat(30)} }` }, null),
        "QUERY_TOO_DEEP",
      );
      // A lexical error far into a long document is placed where it is.
      const bad = await post({ query: `{ organization {\n ${"name ".repeat(100)} ? } }` });
      expect([bad.status, bad.body.errors[0].extensions.code, bad.body.errors[0].locations]).toEqual([400, "GRAPHQL_PARSE_FAILED", [{ line: 2, column: 503 }]]);
      expect400(await post({ query: repeated(1_000) }), "QUERY_TOO_REPETITIVE");
      expect((await post({ query: repeated(25) })).body.data.organization.name).toBe("Hostile");
      expect400(await post({ query: `mutation { exchangeToken(input: { apiKey: "x" }) { ${"accessToken ".repeat(600)} } }` }, null), "QUERY_TOO_REPETITIVE");
      // Fragments that each use the one before twice: a short text that expands past any size.
      const fragments = Array.from(
        { length: 30 },
        (_, i) => `fragment T${i} on __Type { name ${i === 0 ? "" : `ofType { ...T${i - 1} } fields { type { ...T${i - 1} } }`} }`,
      ).join(" ");
      expect400(await post({ query: `{ __schema { types { ...T29 } } } ${fragments}` }), "QUERY_TOO_LARGE");
      // The same name selected through many fragments counts as repeated in the place they are spread.
      const spread = Array.from({ length: 100 }, (_, i) => `fragment G${i} on Organization { name }`).join(" ");
      expect400(await post({ query: `{ organization { ${Array.from({ length: 100 }, (_, i) => `...G${i}`).join(" ")} } } ${spread}` }), "QUERY_TOO_REPETITIVE");
    });
  });
});

describe("slow clients", () => {
  let t: TestService;
  let port: number;

  beforeAll(async () => {
    t = await TestService.start({ env: { HEADERS_TIMEOUT_MS: "200", REQUEST_TIMEOUT_MS: "400", KEEP_ALIVE_TIMEOUT_MS: "200" } });
    await new Promise<void>((resolve) => t.runtime.server.listen(0, "127.0.0.1", resolve));
    port = (t.runtime.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.stop());

  /** Connects, writes `text`, and answers what the server sent until it closed the connection. */
  const heldOpen = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
      let received = "";
      socket.on("data", (chunk) => (received += chunk.toString()));
      socket.on("error", reject);
      socket.on("close", () => resolve(received));
    });

  it("closes a connection whose headers never end", async () => {
    const received = await heldOpen("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: 1");
    expect(received).toMatch(/^HTTP\/1.1 408/);
  });

  it("closes a connection that sends less body than it declared", async () => {
    const received = await heldOpen(`POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":`);
    expect(received).toMatch(/^HTTP\/1.1 408/);
  });

  it("closes an idle kept-alive connection after its answer", async () => {
    const received = await heldOpen("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n");
    expect(received).toMatch(/^HTTP\/1.1 200/);
  });

  it("takes the settings from the environment, with the documented defaults", async () => {
    expect([t.runtime.server.headersTimeout, t.runtime.server.requestTimeout, t.runtime.server.keepAliveTimeout]).toEqual([200, 400, 200]);
    const { loadConfig } = await import("../../src/config");
    const defaults = loadConfig({});
    expect([defaults.headersTimeoutMs, defaults.requestTimeoutMs, defaults.keepAliveTimeoutMs]).toEqual([10_000, 30_000, 5_000]);
  });
});
