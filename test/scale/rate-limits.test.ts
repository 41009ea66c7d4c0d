import Redis from "ioredis";
import { Client } from "pg";
import { PLATFORM_KEY, TestOrganization, TestService } from "../support/harness";
import { ServiceProcess } from "../support/service-process";
import { createTestDatabase, TestDatabase } from "../support/test-database";

const LOCATIONS = "{ locations(first: 100) { nodes { id name } } }";
/** 100 locations, each costing itself and its two fields. */
const LOCATIONS_COST = 100 * (1 + 3);

/** What a call left of its budget, from its RateLimit header. */
const remaining = (res: { headers: Record<string, string> } | Response): number => {
  const header = res instanceof Response ? res.headers.get("ratelimit") : res.headers["ratelimit"];
  return Number(/;r=(\d+);/.exec(header ?? "")?.[1] ?? NaN);
};

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

  it("keeps the shared counters out of the write-ahead log: taking a lease never waits for the disk", async () => {
    const [{ relpersistence }] = await t.runtime.db.query("SELECT relpersistence FROM pg_class WHERE oid = 'rate_limits.counters'::regclass");
    expect(relpersistence).toBe("u");
  });

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
    // A refused call spends nothing: a smaller one still fits, and spends the rest.
    const rest = await t.as(org.token).get(`/api/organizations/${org.id}/locations?limit=${1000 - 2 * LOCATIONS_COST}`);
    expect(rest.status).toBe(200);
    expect(remaining(rest)).toBe(0);

    // Refused before any work: a write over the limit leaves nothing behind.
    const write = await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name: "Over the limit", timezone: "UTC" });
    expect(write.status).toBe(429);
    expect(write.body.error).toMatchObject({ code: "RATE_LIMITED", requestId: write.headers["x-request-id"] });
    const [{ count }] = await t.runtime.db.query("SELECT count(*)::int AS count FROM locations WHERE organization_id = $1 AND name = 'Over the limit'", [
      org.id,
    ]);
    expect(count).toBe(0);

    // Their budget is whole but for their own small read (a few points).
    const theirs = await t.as(other.token).get(`/api/organizations/${other.id}`);
    expect(theirs.status).toBe(200);
    expect(remaining(theirs)).toBeGreaterThan(950);
  });

  it("gives a staff member's token a budget of its own", async () => {
    // The fifth call without a token: the staff member's exchange.
    const { token } = await t.staffWithToken(other, "Manager");
    const res = await t.as(token).get(`/api/organizations/${other.id}`);
    expect(res.status).toBe(200);
    expect(remaining(res)).toBeGreaterThan(950);
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
      for (const response of Object.values(op.responses))
        expect(Object.keys(resolved(response).headers ?? {})).toEqual(expect.arrayContaining(["RateLimit-Policy", "RateLimit"]));
    }
    expect(Object.keys(doc.components.headers)).toEqual(expect.arrayContaining(["RateLimitPolicy", "RateLimit", "RetryAfter"]));
  });
});

describe("what a REST call spends", () => {
  let t: TestService;
  let org: TestOrganization;
  let location: string;
  beforeAll(async () => {
    t = await TestService.start({ env: { RATE_LIMIT_POINTS: "1000000", RATE_LIMIT_WINDOW_SECONDS: "3600" } });
    org = await t.organization();
    const created = await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name: "Priced", timezone: "UTC" });
    expect(created.status).toBe(201);
    location = created.body.id;
  });
  afterAll(() => t.stop());

  /** The points one call took: the budget left before it less the budget left after it. */
  async function spent(path: string): Promise<number> {
    const before = remaining(await t.as(org.token).get(`/api/organizations/${org.id}`));
    const res = await t.as(org.token).get(path);
    expect(res.status).toBe(200);
    return before - remaining(res);
  }

  it("spends one point per record a call may answer: a plain call 1, a list its page size", async () => {
    const list = `/api/organizations/${org.id}/locations`;
    expect(await spent(`/api/organizations/${org.id}/locations/${location}`)).toBe(1);
    expect([await spent(`${list}?limit=1`), await spent(`${list}?limit=2`), await spent(`${list}?limit=10`)]).toEqual([1, 2, 10]);
    // Without a limit a REST list answers up to 1000 rows, and spends for as many.
    expect(await spent(list)).toBe(1000);
  });

  it("makes an export spend by the days of its range", async () => {
    const exportOf = (endDate: string) => `/api/timesheets/export?startDate=2026-03-01&endDate=${endDate}`;
    expect(await spent(exportOf("2026-03-01"))).toBe(1000);
    expect(await spent(exportOf("2026-03-07"))).toBe(7000);
  });
});

/** Rows of the rate-limit counters in PostgreSQL under `key`. */
async function countersIn(database: TestDatabase, key: string): Promise<number> {
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query("SELECT 1 FROM rate_limits.counters WHERE key = $1", [key])).rowCount ?? 0;
  } finally {
    await client.end();
  }
}

/**
 * Two service processes on one database (and `env`) share one budget of 60 points: each spends
 * from leases it takes of the budget in the shared store (5 % of it, 3 points, at most), so all
 * of them together admit no more than the budget, and a client is refused early by no more than
 * what the other process holds leased and unspent (3 points here).
 */
function sharesOneBudget(env: Record<string, string>, counted: (database: TestDatabase, key: string) => Promise<boolean>) {
  let database: TestDatabase;
  const services: ServiceProcess[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    const limits = { RATE_LIMIT_POINTS: "60", RATE_LIMIT_WINDOW_SECONDS: "3600", ...env };
    // One after the other: the second finds the migrations applied.
    services.push(await ServiceProcess.start(database.url, limits));
    services.push(await ServiceProcess.start(database.url, limits));
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await database.drop();
  });

  /** A new organization's token (a budget of its own) and a small read of it through process `i % 2`. */
  async function newClient(): Promise<{ token: string; call: (i: number) => Promise<Response> }> {
    const [a, b] = services;
    const created = await fetch(`${a.url}/api/organizations`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${PLATFORM_KEY}` },
      body: JSON.stringify({ name: "Two Processes", timezone: "UTC" }),
    }).then((r) => r.json());
    const token = (
      await fetch(`${b.url}/api/auth/token-exchange`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ apiKey: created.apiKey }),
      }).then((r) => r.json())
    ).accessToken;
    const call = (i: number) => fetch(`${[a, b][i % 2].url}/api/organizations/${created.organization.id}`, { headers: { Authorization: `Bearer ${token}` } });
    return { token, call };
  }

  it("shares one budget across two processes: calls alternating between them get exactly the budget, the rest refused with Retry-After", async () => {
    const { token, call } = await newClient();
    const first = await call(0);
    expect(60 - remaining(first)).toBeGreaterThanOrEqual(1);
    const answers: Response[] = [first];
    // Each process is called 40 times, more than its share: every leased point is spent.
    for (let i = 1; i < 80; i++) answers.push(await call(i));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(60);
    expect(answers.slice(-10).map((r) => r.status)).toEqual(Array(10).fill(429));
    for (const r of answers) expect(r.headers.get("ratelimit-policy")).toBe(`"token";q=60;w=3600`);
    for (const r of answers.filter((a) => a.status === 429)) {
      expect(remaining(r)).toBe(0);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(3000);
      expect((await r.json()).error.code).toBe("RATE_LIMITED");
    }
    // The budget is counted in the store named, under the API key's id (the token's "key" claim).
    const apiKeyId = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()).key;
    expect(await counted(database, `token:key:${apiKeyId}`)).toBe(true);
  });

  it("admits no more than the budget to calls racing on both processes, and refuses at most one lease early", async () => {
    const { call } = await newClient();
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => call(i)));
    const admitted = answers.filter((r) => r.status === 200).length;
    expect(admitted).toBeLessThanOrEqual(60);
    expect(admitted).toBeGreaterThanOrEqual(60 - 3);
    expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
  });
}

(process.env.TEST_DATABASE_URL ? describe : describe.skip)("rate limits across processes, counted in PostgreSQL", () =>
  sharesOneBudget({}, async (database, key) => (await countersIn(database, key)) === 1),
);

if (process.env.TEST_DATABASE_URL && !process.env.TEST_REDIS_URL)
  console.warn("Skipped: rate limits counted in Redis (set TEST_REDIS_URL, e.g. redis://127.0.0.1:6379)");
(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL ? describe : describe.skip)("rate limits across processes, counted in Redis", () =>
  sharesOneBudget({ REDIS_URL: process.env.TEST_REDIS_URL ?? "" }, async (database, key) => {
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    try {
      // Nothing of the token's budget in PostgreSQL: Redis alone counts it.
      return (await countersIn(database, key)) === 0 && (await redis.exists(key)) === 1;
    } finally {
      redis.disconnect();
    }
  }),
);

describe("the token exchange's budgets", () => {
  let t: TestService;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await TestService.start({
      env: { RATE_LIMIT_POINTS: "1000", RATE_LIMIT_WINDOW_SECONDS: "3600", RATE_LIMIT_ANONYMOUS_POINTS: "5", TRUST_PROXY: "loopback" },
    });
    org = await t.organization();
  });
  afterAll(() => t.stop());

  const exchange = (apiKey: string, from: string) => t.http.post("/api/auth/token-exchange").set("X-Forwarded-For", from).send({ apiKey });

  it("spends a key prefix's budget on failures only, and never refuses the key itself for its prefix", async () => {
    const guess = `${org.apiKey.slice(0, 12)}${"x".repeat(20)}`;
    const answers = [];
    // Guesses sharing the real key's prefix, each from an address of its own.
    for (let i = 0; i < 8; i++) answers.push((await exchange(guess, `198.51.100.${i + 1}`)).status);
    expect(answers).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const real = await exchange(org.apiKey, "203.0.113.9");
    expect(real.status).toBe(200);
    const gql = await t.http
      .post("/graphql")
      .set("X-Forwarded-For", "203.0.113.10")
      .send({ query: "mutation ($apiKey: String!) { exchangeToken(input: { apiKey: $apiKey }) { accessToken } }", variables: { apiKey: org.apiKey } });
    expect(gql.body.data.exchangeToken.accessToken).toBeDefined();
  });

  it("counts an IPv6 client by its /64, and a trusted proxy's forwarded address as the client", async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await exchange(`wfk_other_${i}_000000000000000000`, `2001:db8:1:2::${i + 1}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Another /64 has a budget of its own.
    expect((await exchange("wfk_other_9_000000000000000000", "2001:db8:1:3::1")).status).toBe(401);
  });
});

describe("an organization's ceiling", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start({ env: { RATE_LIMIT_POINTS: "5000", RATE_LIMIT_ORGANIZATION_POINTS: "6000", RATE_LIMIT_WINDOW_SECONDS: "3600" } });
  });
  afterAll(() => t.stop());

  it("holds all of an organization's keys and staff tokens to one budget, and leaves other organizations theirs", async () => {
    const org = await t.organization();
    const second = await t.as(org.token).post(`/api/organizations/${org.id}/api-keys`, { name: "Second" });
    const other = await t.token(second.body.secret);
    // A list without a limit spends 1,000 points.
    const list = (token: string) => t.as(token).get(`/api/organizations/${org.id}/locations`);
    for (let i = 0; i < 3; i++) expect((await list(org.token)).status).toBe(200);
    expect((await list(other)).status).toBe(200);
    expect((await list(other)).status).toBe(200);
    const refused = await list(other);
    expect(refused.status).toBe(429);
    expect(refused.headers["ratelimit-policy"]).toBe(`"organization";q=6000;w=3600`);
    const elsewhere = await t.organization("Elsewhere");
    expect((await t.as(elsewhere.token).get(`/api/organizations/${elsewhere.id}/locations`)).status).toBe(200);
  });
});
