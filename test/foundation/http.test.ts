import fc from "fast-check";
import { jsonBytes } from "../../src/common/json-bytes";
import { TestOrganization, TestService } from "../support/harness";

/** @database-independent: the HTTP layer answers the same on any database. */
describe("HTTP edges: bodies, unknown paths, query limits, GraphiQL, OpenAPI", () => {
  let t: TestService;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization();
  });
  afterAll(() => t.stop());

  it("answers malformed JSON with 400 and an oversized body with 413", async () => {
    const path = `/api/organizations/${org.id}/locations`;
    const malformed = await t.http.post(path).set("Authorization", `Bearer ${org.token}`).set("Content-Type", "application/json").send('{"name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: "BAD_REQUEST" });
    const big = await t.as(org.token).post(path, { name: "x".repeat(1024 * 1024 + 10), timezone: "UTC" });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe("PAYLOAD_TOO_LARGE");
    const array = await t.as(org.token).post(path, [1, 2] as unknown as object);
    expect(array.status).toBe(400);
    const invalidUtf8 = await t.http
      .post(path)
      .set("Authorization", `Bearer ${org.token}`)
      .set("Content-Type", "application/json")
      .serialize((raw: Buffer) => raw as unknown as string)
      .send(Buffer.concat([Buffer.from('{"name": "'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('", "timezone": "UTC"}')]));
    expect(invalidUtf8.status).toBe(400);
    expect(invalidUtf8.body.error.message).toMatch(/UTF-8/);
  });

  it("says in /healthz how the process keeps up: its event loop's delay and the time garbage collection takes", async () => {
    // The service runs in this process: holding its event loop for 60 ms makes a timer at least that late.
    const until = Date.now() + 60;
    while (Date.now() < until);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const res = await t.http.get("/healthz");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
    const { eventLoopDelayMs, garbageCollectionPercent, uptimeSeconds } = res.body.process;
    expect(eventLoopDelayMs.max).toBeGreaterThanOrEqual(40);
    expect(eventLoopDelayMs.p99).toBeGreaterThanOrEqual(eventLoopDelayMs.p50);
    expect(eventLoopDelayMs.max).toBeGreaterThanOrEqual(eventLoopDelayMs.p99);
    expect(garbageCollectionPercent).toBeGreaterThanOrEqual(0);
    expect(garbageCollectionPercent).toBeLessThan(100);
    expect(uptimeSeconds).toBeGreaterThanOrEqual(0);
  });

  it("makes an answer's bytes in pieces that are byte for byte JSON.stringify's, in UTF-8", () => {
    // Compared as latin1 text, one character a byte: compared as buffers, a byte at a time, this test took 10–20 s instead of 0.4.
    const same = (value: unknown) =>
      expect(Buffer.concat(jsonBytes(value)).toString("latin1")).toBe(Buffer.from(JSON.stringify(value) ?? "", "utf8").toString("latin1"));
    const texts = ["", "plain", "Zoë Ångström 東京 🚀", "\ud800 lone", 'quote " and \\ and \n', "x".repeat(5000) + "é"];
    const long = Array.from({ length: 250 }, (_, i) => ({ i, text: texts[i % texts.length], at: new Date(i * 86_400_000), gone: undefined }));
    for (const value of [
      long,
      { shifts: long, gone: undefined, totals: { hours: 1.5 } },
      { gone: undefined, shifts: long },
      { data: { timesheets: { shifts: long, lockedDays: [], totals: { hours: 1.5 } }, gone: undefined }, errors: undefined },
      { data: { a: { b: long }, c: { d: long }, e: [] } },
      [...long, undefined],
      texts,
      {},
      [],
    ])
      same(value);
    expect(jsonBytes(long).length).toBe(3);
    // A GraphQL answer's list, three levels down, is in pieces too.
    expect(jsonBytes({ data: { timesheets: { shifts: long } } }).length).toBeGreaterThanOrEqual(3);
    const lists = fc.array(fc.jsonValue(), { maxLength: 220 });
    const shallowLists = fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 220 });
    const nested = fc.dictionary(fc.string(), fc.oneof(shallowLists, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 3 });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.jsonValue(), { minLength: 90, maxLength: 320 }),
          fc.dictionary(fc.string(), lists),
          fc.dictionary(fc.string(), fc.oneof(shallowLists, nested), { maxKeys: 3 }),
        ),
        same,
      ),
      { numRuns: 60 },
    );
  });

  it("sends answers as UTF-8, whether their text is ASCII or not, through REST and GraphQL", async () => {
    const name = "Zoë Ångström 東京 🚀";
    const created = await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name, timezone: "UTC" });
    expect(created.status).toBe(201);
    // supertest decodes the body as UTF-8: text sent in any other encoding would not read back as the name.
    const rest = await t.as(org.token).get(`/api/organizations/${org.id}/locations/${created.body.id}`);
    expect(rest.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(Number(rest.headers["content-length"])).toBe(Buffer.byteLength(rest.text));
    expect(rest.body.name).toBe(name);
    const query = encodeURIComponent(`{ location(id: "${created.body.id}") { name } }`);
    for (const req of [
      t.http.get(`/graphql?query=${query}`).set("Accept", "application/json").set("apollo-require-preflight", "1"),
      t.http
        .post("/graphql")
        .set("Content-Type", "application/json")
        .send({ query: decodeURIComponent(query) }),
    ]) {
      const answer = await req.set("Authorization", `Bearer ${org.token}`);
      expect(answer.status).toBe(200);
      expect(answer.headers["content-type"]).toMatch(/^application\/(graphql-response\+)?json; charset=utf-8$/);
      expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.text));
      expect(JSON.parse(answer.text)).toEqual({ data: { location: { name } } });
    }
  });

  it("answers unknown API paths with the error body", async () => {
    const res = await t.as(org.token).get("/api/nothing-here");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
    expect(res.headers["x-request-id"]).toBe(res.body.error.requestId);
  });

  it("refuses a query that is too deep or too costly, with a clear code", async () => {
    const codes = async (query: string) => (await t.gql(org.token, query)).errors?.map((e) => e.extensions.code);
    // A valid chain through the schema's one cycle (a staff member's shifts, a shift's employee), `levels` deep.
    const chain = (pairs: number, leaf: string) =>
      `{ timeOffRequests(first: 1) { nodes { workerPolicy { worker { ${'shifts(startDate: "2026-03-01", endDate: "2026-03-02") { employee { '.repeat(pairs)}${leaf}${" } }".repeat(pairs)} } } } } }`;
    // 12 levels (the limit) are answered; 13 are refused as too deep (the four lists of shifts make them too costly besides).
    expect(await codes(chain(3, "accessRole { id }"))).toBeUndefined();
    expect(await codes(chain(4, "createdAt"))).toEqual(["QUERY_TOO_DEEP", "QUERY_TOO_COSTLY"]);
    const page = (first: number) => `staffMembers(first: ${first}) { nodes { roles { id name } locations { id name timezone } } }`;
    expect(await codes(`{ a: ${page(100)} b: ${page(100)} }`)).toBeUndefined();
    expect(await codes(`{ a: ${page(1000)} b: ${page(1000)} c: ${page(1000)} d: ${page(1000)} }`)).toEqual(["QUERY_TOO_COSTLY"]);
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: organization { id }`).join(" ")} }`;
    expect(await codes(aliases(50))).toBeUndefined();
    expect(await codes(aliases(51))).toEqual(["QUERY_TOO_MANY_ALIASES"]);
  });

  it("serves GraphiQL and its assets from the service itself", async () => {
    const page = await t.http.get("/graphql").set("Accept", "text/html");
    expect(page.status).toBe(200);
    expect(page.text).toContain("/graphiql/graphiql.js");
    expect(page.text).not.toMatch(/https?:\/\/(?!localhost)/);
    for (const asset of ["react.js", "react-dom.js", "graphiql.js", "graphiql.css"]) {
      const res = await t.http.get(`/graphiql/${asset}`);
      expect(res.status).toBe(200);
    }
  });

  it("publishes an OpenAPI 3.1 document of every REST path", async () => {
    const { restRoutes } = await import("../../src/app/modules");
    const doc = (await t.http.get("/api/openapi.json")).body;
    expect(doc.openapi).toBe("3.1.0");
    for (const route of restRoutes) {
      expect(doc.paths[route.path]?.[route.method.toLowerCase()]).toBeDefined();
    }
    const create = doc.paths["/api/organizations/{org}/locations"].post;
    const ref = create.requestBody.content["application/json"].schema.$ref.split("/").pop();
    expect(doc.components.schemas[ref].required).toEqual(expect.arrayContaining(["name", "timezone"]));
  });
});
