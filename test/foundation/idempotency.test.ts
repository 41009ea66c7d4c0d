import express from "express";
import request from "supertest";
import { graphqlSchema } from "../../src/app/modules";
import { ALL_PERMISSIONS, Permission } from "../../src/auth/permissions";
import { guardRequest } from "../../src/graphql/request-guard";
import { sendError } from "../../src/http/app";
import { idempotency, idempotencyKeyPruning, MAX_KEPT_ANSWER_BYTES } from "../../src/http/idempotency";
import { PLATFORM_KEY, TestOrganization, TestService } from "../support/harness";

describe("Idempotency-Key", () => {
  let t: TestService;
  let org: TestOrganization;
  const path = () => `/api/organizations/${org.id}/locations`;
  const countLocations = async () => (await t.as(org.token).get(path())).body.length as number;
  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization();
  });
  afterAll(() => t.stop());

  it("answers a retry with the first answer and writes once", async () => {
    const body = { name: "Pier 5", timezone: "UTC" };
    const first = await t.as(org.token).post(path(), body).set("Idempotency-Key", "create-pier-5");
    const retry = await t.as(org.token).post(path(), body).set("Idempotency-Key", "create-pier-5");
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(await countLocations()).toBe(1);
  });

  it("refuses the same key with another body (422)", async () => {
    await t.as(org.token).post(path(), { name: "A", timezone: "UTC" }).set("Idempotency-Key", "k-422");
    const reused = await t.as(org.token).post(path(), { name: "B", timezone: "UTC" }).set("Idempotency-Key", "k-422");
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("writes once when twenty copies arrive at once", async () => {
    const before = await countLocations();
    const body = { name: "Twenty", timezone: "UTC" };
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.as(org.token).post(path(), body).set("Idempotency-Key", "twenty")));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const a of created) expect(a.body.id).toBe(created[0].body.id);
    for (const a of answers.filter((x) => x.status !== 201)) expect(a.body.error.code).toBe("IDEMPOTENCY_KEY_IN_USE");
    expect(await countLocations()).toBe(before + 1);
  });

  it("keeps keys per organization, and works for GraphQL mutations", async () => {
    const other = await t.organization("Other");
    const mine = await t
      .as(other.token)
      .post(`/api/organizations/${other.id}/locations`, { name: "Pier 5", timezone: "UTC" })
      .set("Idempotency-Key", "create-pier-5");
    expect(mine.status).toBe(201);
    expect(mine.headers["idempotent-replayed"]).toBeUndefined();
    const mutation = { query: 'mutation { createRole(input: { name: "Barista" }) { id } }' };
    const gql = () => t.http.post("/graphql").set("Authorization", `Bearer ${org.token}`).set("Idempotency-Key", "gql-1").send(mutation);
    const a = await gql();
    const b = await gql();
    expect(b.body).toEqual(a.body);
    const roles = await t.as(org.token).get(`/api/organizations/${org.id}/roles`);
    expect(roles.body.filter((r: { name: string }) => r.name === "Barista")).toHaveLength(1);
  });
});

describe("Idempotency-Key belongs to its caller", () => {
  let t: TestService;
  let org: TestOrganization;
  const keys = () => `/api/organizations/${org.id}/api-keys`;
  beforeAll(async () => {
    t = await TestService.start({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } });
    org = await t.organization();
  });
  afterAll(() => t.stop());

  it("replays a created key's secret to no one: another caller is refused, the same caller gets it redacted", async () => {
    const body = { name: "Payroll export" };
    const first = await t.as(org.token).post(keys(), body).set("Idempotency-Key", "new-key-1");
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^wfk_/);
    const worker = await t.staffWithToken(org, "Worker");
    const stolen = await t.as(worker.token).post(keys(), body).set("Idempotency-Key", "new-key-1");
    expect(stolen.status).toBe(403);
    expect(JSON.stringify(stolen.body)).not.toContain(first.body.secret);
    const retry = await t.as(org.token).post(keys(), body).set("Idempotency-Key", "new-key-1");
    expect(retry.status).toBe(201);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.headers["idempotent-redacted"]).toBe("true");
    expect(retry.body.apiKey.id).toBe(first.body.apiKey.id);
    expect(retry.body.secret).toBe("[redacted]");
    const [row] = await t.runtime.db.query("SELECT response_body FROM idempotency_keys WHERE key = 'new-key-1'");
    expect(row.response_body).not.toContain(first.body.secret);
  });

  it("keeps no signing secret of a webhook endpoint", async () => {
    const path = `/api/organizations/${org.id}/webhook-endpoints`;
    const body = { url: "http://127.0.0.1:9/in" };
    const first = await t.as(org.token).post(path, body).set("Idempotency-Key", "hook-1");
    expect(first.status).toBe(201);
    const retry = await t.as(org.token).post(path, body).set("Idempotency-Key", "hook-1");
    expect(retry.body.id).toBe(first.body.id);
    expect(retry.body.secret).toBe("[redacted]");
  });

  it("keeps no clock device's token", async () => {
    const location = await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name: "Kiosk", timezone: "UTC" });
    const path = `/api/organizations/${org.id}/locations/${location.body.id}/clock-devices`;
    const first = await t.as(org.token).post(path, { name: "Front door" }).set("Idempotency-Key", "device-1");
    expect(first.status).toBe(201);
    expect(first.body.token).toMatch(/^wfd_/);
    const retry = await t.as(org.token).post(path, { name: "Front door" }).set("Idempotency-Key", "device-1");
    expect([retry.headers["idempotent-redacted"], retry.body.token, retry.body.device.id]).toEqual(["true", "[redacted]", first.body.device.id]);
  });

  it("replays no organization's API key to an anonymous caller", async () => {
    const body = { name: "Replayed", timezone: "UTC" };
    const first = await t.http.post("/api/organizations").set("Authorization", `Bearer ${PLATFORM_KEY}`).set("Idempotency-Key", "org-1").send(body);
    expect(first.status).toBe(201);
    const anonymous = await t.http.post("/api/organizations").set("Idempotency-Key", "org-1").send(body);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.apiKey).toBeUndefined();
    const wrongKey = await t.http.post("/api/organizations").set("Authorization", "Bearer wfp_not_the_platform_key").set("Idempotency-Key", "org-1").send(body);
    expect(wrongKey.status).toBe(401);
    const retry = await t.http.post("/api/organizations").set("Authorization", `Bearer ${PLATFORM_KEY}`).set("Idempotency-Key", "org-1").send(body);
    expect(retry.body.organization.id).toBe(first.body.organization.id);
    expect(retry.body.apiKey).toBe("[redacted]");
  });

  it("does not keep a refusal: a Worker's 403 is not the administrator's answer", async () => {
    const worker = await t.staffWithToken(org, "Worker");
    const path = `/api/organizations/${org.id}/locations`;
    const body = { name: "Refused first", timezone: "UTC" };
    const refused = await t.as(worker.token).post(path, body).set("Idempotency-Key", "loc-403");
    expect(refused.status).toBe(403);
    const admin = await t.as(org.token).post(path, body).set("Idempotency-Key", "loc-403");
    expect(admin.status).toBe(201);
    expect(admin.headers["idempotent-replayed"]).toBeUndefined();
    const gql = { query: 'mutation { createRole(input: { name: "Refused role" }) { id } }' };
    const workerGql = await t.http.post("/graphql").set("Authorization", `Bearer ${worker.token}`).set("Idempotency-Key", "gql-403").send(gql);
    expect(workerGql.body.errors[0].extensions.code).toBe("FORBIDDEN");
    const adminGql = await t.http.post("/graphql").set("Authorization", `Bearer ${org.token}`).set("Idempotency-Key", "gql-403").send(gql);
    expect(adminGql.body.data.createRole.id).toBeDefined();
  });

  it("keeps no answer of a read-only GraphQL operation, and one caller's key is not another's", async () => {
    const read = await t.http
      .post("/graphql")
      .set("Authorization", `Bearer ${org.token}`)
      .set("Idempotency-Key", "read-1")
      .send({ query: "{ organization { id } }" });
    expect(read.body.data.organization.id).toBe(org.id);
    const write = await t.http
      .post("/graphql")
      .set("Authorization", `Bearer ${org.token}`)
      .set("Idempotency-Key", "read-1")
      .send({ query: 'mutation { createRole(input: { name: "After a read" }) { id } }' });
    expect(write.body.data.createRole.id).toBeDefined();
    const manager = await t.staffWithToken(org, "Manager");
    const mine = await t.http
      .post("/graphql")
      .set("Authorization", `Bearer ${manager.token}`)
      .set("Idempotency-Key", "read-1")
      .send({ query: 'mutation { createRole(input: { name: "Managers own" }) { id } }' });
    expect(mine.headers["idempotent-replayed"]).toBeUndefined();
    expect(mine.body.data.createRole.id).not.toBe(write.body.data.createRole.id);
  });

  it("deletes keys whose 24 hours are over", async () => {
    await t.as(org.token).post(`/api/organizations/${org.id}/roles`, { name: "Old" }).set("Idempotency-Key", "old-1");
    await t.runtime.db.query("UPDATE idempotency_keys SET expires_at = now() - interval '1 minute' WHERE key = 'old-1'");
    const result = await idempotencyKeyPruning(t.runtime.unitOfWork).run();
    expect(result).toEqual({ deleted: 1 });
    expect(await t.runtime.db.query("SELECT 1 FROM idempotency_keys WHERE key = 'old-1'")).toHaveLength(0);
  });
});

describe("Idempotency-Key's kept answers", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.stop());

  it(`keeps no answer larger than ${MAX_KEPT_ANSWER_BYTES} bytes, and runs nothing twice for it`, async () => {
    const org = await t.organization();
    const actor = {
      organizationId: org.id,
      apiKeyId: "00000000-0000-4000-8000-000000000001",
      staffId: null,
      permissions: new Set<Permission>(ALL_PERMISSIONS),
    };
    let runs = 0;
    const app = express();
    app.use(express.json());
    app.use((req, res, next) => {
      res.locals.context = { actor, presentedKey: null };
      // The guard's answer the service hands on: the request's one tree and the operation it runs.
      res.locals.graphql = guardRequest(graphqlSchema(), t.runtime.documents, req.body, true);
      next();
    });
    app.use(idempotency({ db: t.runtime.db, unitOfWork: t.runtime.unitOfWork, logger: t.runtime.logger, sendError, compiled: [], isPlatformKey: () => false }));
    app.post("/graphql", (_req, res) => {
      runs += 1;
      res.json({ data: { createRole: { name: "x".repeat(MAX_KEPT_ANSWER_BYTES + 1) } } });
    });
    const call = () =>
      request(app).post("/graphql").set("Idempotency-Key", "large-1").send({ query: 'mutation { createRole(input: { name: "Large" }) { name } }' });
    expect((await call()).status).toBe(200);
    const retry = await call();
    expect(retry.status).toBe(409);
    expect(retry.body.error.code).toBe("IDEMPOTENCY_ANSWER_NOT_KEPT");
    expect(runs).toBe(1);
  });
});
