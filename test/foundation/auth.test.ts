import { SignJWT } from "jose";
import { PLATFORM_KEY, TestOrganization, TestService } from "../support/harness";

describe("organizations, API keys and tokens", () => {
  let t: TestService;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization("Acme", "America/New_York");
  });
  afterAll(() => t.stop());

  it("creates an organization only with the platform key", async () => {
    expect((await t.http.post("/api/organizations").send({ name: "X" })).status).toBe(401);
    const wrong = await t.http.post("/api/organizations").set("Authorization", "Bearer nope").send({ name: "X" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("UNAUTHENTICATED");
    const ok = await t.http.post("/api/organizations").set("Authorization", `Bearer ${PLATFORM_KEY}`).send({ name: "Bistro" });
    expect(ok.status).toBe(201);
    expect(ok.body.organization).toMatchObject({ name: "Bistro", timezone: "UTC" });
    expect(ok.body.apiKey).toMatch(/^wfk_/);
  });

  it("refuses bad organization input with 400 and the error body", async () => {
    const platform = (body: object) => t.http.post("/api/organizations").set("Authorization", `Bearer ${PLATFORM_KEY}`).send(body);
    const badZone = await platform({ name: "X", timezone: "Mars/Olympus" });
    expect(badZone.status).toBe(400);
    expect(badZone.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: [{ field: "timezone" }] });
    expect(badZone.body.error.requestId).toBe(badZone.headers["x-request-id"]);
    expect(badZone.body.error.requestId).toMatch(/\S/);
    const unknown = await platform({ name: "X", colour: "red" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].field).toBe("colour");
    const wrongType = await platform({ name: 42 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.details[0].field).toBe("name");
    expect((await platform({})).status).toBe(400);
  });

  it("exchanges an API key for a bearer token and reads the organization with it", async () => {
    const res = await t.http.post("/api/auth/token-exchange").send({ apiKey: org.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tokenType: "Bearer", expiresIn: 3600 });
    const me = await t.as(res.body.accessToken).get(`/api/organizations/${org.id}`);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: org.id, name: "Acme", timezone: "America/New_York" });
    expect(me.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await t.http.post("/api/auth/token-exchange").send({ apiKey: "wfk_unknown" })).status).toBe(401);
  });

  it("changes the organization, and refuses a bad time zone", async () => {
    const api = t.as(org.token);
    expect((await api.patch(`/api/organizations/${org.id}`, { timezone: "Europe/Berlin" })).body.timezone).toBe("Europe/Berlin");
    expect((await api.patch(`/api/organizations/${org.id}`, { timezone: "Nowhere" })).status).toBe(400);
    expect((await api.patch(`/api/organizations/${org.id}`, { name: null })).status).toBe(400);
    await api.patch(`/api/organizations/${org.id}`, { timezone: "America/New_York" });
  });

  it("lists, creates and revokes API keys; a revoked key and its tokens stop working", async () => {
    const api = t.as(org.token);
    const created = await api.post(`/api/organizations/${org.id}/api-keys`, { name: "Payroll export" });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    const token = await t.token(secret);
    const list = await api.get(`/api/organizations/${org.id}/api-keys`);
    expect(list.body.map((k: { name: string }) => k.name)).toEqual(["Initial key", "Payroll export"]);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect((await api.delete(`/api/organizations/${org.id}/api-keys/${created.body.apiKey.id}`)).status).toBe(204);
    expect((await t.http.post("/api/auth/token-exchange").send({ apiKey: secret })).status).toBe(401);
    const refused = await t.as(token).get(`/api/organizations/${org.id}`);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("UNAUTHENTICATED");
  });

  it("refuses expired, unsigned, foreign-signed and malformed tokens", async () => {
    const path = `/api/organizations/${org.id}`;
    t.clock.advance(2 * 3600 * 1000);
    const expired = await t.as(org.token).get(path);
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toMatch(/expired/);
    t.clock.advance(-2 * 3600 * 1000);

    const [header, payload] = org.token.split(".");
    const unsignedHeader = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    expect((await t.as(`${unsignedHeader}.${payload}.`).get(path)).status).toBe(401);
    expect((await t.as(`${header}.${payload}.AAAA`).get(path)).status).toBe(401);
    const forged = await new SignJWT({ org: org.id, key: "x" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("workforce-service")
      .setAudience("workforce-api")
      .setSubject("apikey:x")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("another-secret-another-secret-another"));
    expect((await t.as(forged).get(path)).status).toBe(401);
    expect((await t.http.get(path)).status).toBe(401);
    expect((await t.http.get(path).set("Authorization", "Basic abc")).status).toBe(401);
  });

  it("says in each 401 how to authenticate and to exchange the API key again, and tells an API key sent as a token what to do", async () => {
    const path = `/api/organizations/${org.id}`;
    const anonymous = await t.http.get(path);
    expect(anonymous.headers["www-authenticate"]).toBe('Bearer realm="api"');
    expect(anonymous.body.error.message).toMatch(/exchange an API key for one \(POST \/api\/auth\/token-exchange\)/);

    t.clock.advance(2 * 3600 * 1000);
    const expired = await t.as(org.token).get(path);
    t.clock.advance(-2 * 3600 * 1000);
    expect(expired.body.error.message).toBe("The access token has expired: exchange the API key again (POST /api/auth/token-exchange) for a new one");
    expect(expired.headers["www-authenticate"]).toBe(`Bearer realm="api", error="invalid_token", error_description="${expired.body.error.message}"`);
    const invalid = await t.as(`${org.token}x`).get(path);
    expect(invalid.body.error.message).toMatch(/^The access token is invalid: exchange the API key again/);

    const keyAsToken = await t.as(org.apiKey).get(path);
    expect(keyAsToken.status).toBe(401);
    expect(keyAsToken.body.error.message).toMatch(/^This is an API key, not an access token: exchange it with POST \/api\/auth\/token-exchange/);
    expect(keyAsToken.headers["www-authenticate"]).toMatch(/^Bearer realm="api", error="invalid_token"/);

    // GraphQL answers its 401s with the same header.
    const graphql = await t.http.post("/graphql").send({ query: "{ organization { id } }" });
    expect(graphql.status).toBe(401);
    expect(graphql.headers["www-authenticate"]).toBe('Bearer realm="api"');
    const graphqlKey = await t.http.post("/graphql").set("Authorization", `Bearer ${org.apiKey}`).send({ query: "{ organization { id } }" });
    expect(graphqlKey.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^This is an API key/), extensions: { code: "UNAUTHENTICATED" } });
    expect(graphqlKey.headers["www-authenticate"]).toMatch(/error="invalid_token"/);
  });

  it("acts as a staff member: a token for another organization's staff is refused", async () => {
    const other = await t.organization("Other");
    const { staff } = await t.staffWithToken(other, "Worker");
    const res = await t.http.post("/api/auth/token-exchange").send({ apiKey: org.apiKey, staffId: staff.id });
    expect(res.status).toBe(404);
  });

  it("answers GraphQL errors with extensions.code", async () => {
    const anonymous = await t.gql(null, "{ organization { id } }");
    expect(anonymous.errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
    const created = await t.gql(null, 'mutation { exchangeToken(input: { apiKey: "bad" }) { accessToken } }');
    expect(created.errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
    const ok = await t.gql(org.token, "{ organization { id name } }");
    expect(ok.data?.organization).toEqual({ id: org.id, name: "Acme" });
  });
});
