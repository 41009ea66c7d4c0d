import { PLATFORM_KEY, TestOrganization, TestService } from "../support/harness";
import { ServiceProcess } from "../support/service-process";
import { createTestDatabase, TestDatabase } from "../support/test-database";

const LOCATIONS = "{ locations(first: 100) { nodes { id name } } }";
/** 100 locations, each costing itself and its two fields. */
const LOCATIONS_COST = 100 * (1 + 3);

describe("rate limits in one process", () => {
  let t: TestService;
  let org: TestOrganization;
  let other: TestOrganization;
  beforeAll(async () => {
    t = await TestService.start({ env: { RATE_LIMIT_POINTS: "1000", RATE_LIMIT_WINDOW_SECONDS: "3600", RATE_LIMIT_ANONYMOUS_POINTS: "8" } });
    // Four calls without a token: two creations, two exchanges.
    org = await t.organization();
    other = await t.organization("Other Org");
  });
  afterAll(() => t.stop());

  it("makes a GraphQL operation spend its cost, refuses the one that no longer fits, and leaves another organization alone", async () => {
    const gql = () => t.http.post("/graphql").set("Authorization", `Bearer ${org.token}`).send({ query: LOCATIONS });
    const first = await gql();
    expect(first.status).toBe(200);
    expect(first.headers["ratelimit-policy"]).toBe(`"token";q=1000;w=3600`);
    expect(first.headers["ratelimit"]).toMatch(new RegExp(`^"token";r=${1000 - LOCATIONS_COST};t=\\d+$`));
    expect((await gql()).headers["ratelimit"]).toMatch(new RegExp(`^"token";r=${1000 - 2 * LOCATIONS_COST};t=`));
    const refused = await gql();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.body.errors[0].extensions.code).toBe("RATE_LIMITED");

    // Refused before any work: a write over the limit leaves nothing behind.
    const write = await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name: "Over the limit", timezone: "UTC" });
    expect(write.status).toBe(429);
    expect(write.body.error).toMatchObject({ code: "RATE_LIMITED", requestId: write.headers["x-request-id"] });
    const [{ count }] = await t.runtime.db.query("SELECT count(*)::int AS count FROM locations WHERE organization_id = $1 AND name = 'Over the limit'", [org.id]);
    expect(count).toBe(0);

    const theirs = await t.as(other.token).get(`/api/organizations/${other.id}/locations`);
    expect(theirs.status).toBe(200);
    expect(theirs.headers["ratelimit"]).toMatch(/^"token";r=999;t=/);
  });

  it("gives a staff member's token a budget of its own", async () => {
    // The fifth call without a token: the staff member's exchange.
    const { token } = await t.staffWithToken(other, "Manager");
    const res = await t.as(token).get(`/api/organizations/${other.id}/locations`);
    expect(res.status).toBe(200);
    expect(res.headers["ratelimit"]).toMatch(/^"token";r=999;t=/);
  });

  it("limits calls without a token per client address", async () => {
    const exchange = () => t.http.post("/api/auth/token-exchange").send({ apiKey: "wfk_guessing_0000000000000000" });
    // Five of this address's eight were spent above.
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await exchange());
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 429]);
    expect(answers.map((r) => r.headers["ratelimit"].replace(/;t=\d+$/, ""))).toEqual([2, 1, 0, 0].map((r) => `"anonymous";r=${r}`));
    const refused = answers[3];
    expect(refused.headers["ratelimit-policy"]).toBe(`"anonymous";q=8;w=3600`);
    expect(refused.headers["retry-after"]).toBeDefined();
  });

  it("declares the headers and the 429 on every REST operation", async () => {
    const doc = (await t.http.get("/api/openapi.json")).body;
    type Response = { $ref?: string; headers?: Record<string, unknown> };
    const resolved = (response: Response): Response => (response.$ref ? doc.components.responses[response.$ref.split("/").pop()!] : response);
    const operations = Object.values(doc.paths as Record<string, Record<string, { responses: Record<string, Response> }>>).flatMap((o) => Object.values(o));
    expect(operations.length).toBeGreaterThan(20);
    for (const op of operations) {
      expect(resolved(op.responses["429"]).headers?.["Retry-After"]).toBeDefined();
      for (const response of Object.values(op.responses)) expect(Object.keys(resolved(response).headers ?? {})).toEqual(expect.arrayContaining(["RateLimit-Policy", "RateLimit"]));
    }
    expect(Object.keys(doc.components.headers)).toEqual(expect.arrayContaining(["RateLimitPolicy", "RateLimit", "RetryAfter"]));
  });
});

(process.env.TEST_DATABASE_URL ? describe : describe.skip)("rate limits across processes", () => {
  let database: TestDatabase;
  const services: ServiceProcess[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    const env = { RATE_LIMIT_POINTS: "10", RATE_LIMIT_WINDOW_SECONDS: "3600" };
    // One after the other: the second finds the migrations applied.
    services.push(await ServiceProcess.start(database.url, env));
    services.push(await ServiceProcess.start(database.url, env));
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await database.drop();
  });

  it("shares one budget: 13 calls across two processes give exactly 3 refusals", async () => {
    const [a, b] = services;
    const created = await fetch(`${a.url}/api/organizations`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${PLATFORM_KEY}` },
      body: JSON.stringify({ name: "Two Processes", timezone: "UTC" }),
    }).then((r) => r.json());
    const token = (await fetch(`${b.url}/api/auth/token-exchange`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ apiKey: created.apiKey }) }).then((r) => r.json())).accessToken;
    const answers: Response[] = [];
    for (let i = 0; i < 13; i++) {
      answers.push(await fetch(`${[a, b][i % 2].url}/api/organizations/${created.organization.id}/locations`, { headers: { Authorization: `Bearer ${token}` } }));
    }
    expect(answers.map((r) => r.status)).toEqual([...Array(10).fill(200), 429, 429, 429]);
    expect(answers.map((r) => r.headers.get("ratelimit")?.replace(/;t=\d+$/, ""))).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0].map((r) => `"token";r=${r}`));
    for (const r of answers) expect(r.headers.get("ratelimit-policy")).toBe(`"token";q=10;w=3600`);
    for (const r of answers.slice(10)) {
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(3000);
      expect((await r.json()).error.code).toBe("RATE_LIMITED");
    }
  });
});
