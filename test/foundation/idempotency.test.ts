import { TestOrganization, TestService } from "../support/harness";

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
    const mine = await t.as(other.token).post(`/api/organizations/${other.id}/locations`, { name: "Pier 5", timezone: "UTC" }).set("Idempotency-Key", "create-pier-5");
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
