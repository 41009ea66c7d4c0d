import { TestOrganization, TestService } from "../support/harness";

describe("ETag and If-Match", () => {
  let t: TestService;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization();
  });
  afterAll(() => t.stop());

  it("refuses a change made from a stale read with 412 and accepts one from the current read", async () => {
    const api = t.as(org.token);
    const created = await api.post(`/api/organizations/${org.id}/roles`, { name: "Cook", hourlyWage: 18 });
    const path = `/api/organizations/${org.id}/roles/${created.body.id}`;
    const read = await api.get(path);
    const etag = read.headers.etag;
    expect(etag).toMatch(/^".+"$/);

    // Someone else changes the role after our read.
    t.clock.advance(1000);
    const theirs = await api.patch(path, { hourlyWage: 19 });
    expect(theirs.headers.etag).not.toBe(etag);

    const stale = await api.patch(path, { hourlyWage: 25 }).set("If-Match", etag);
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe("PRECONDITION_FAILED");
    expect((await api.get(path)).body.hourlyWage).toBe(19);

    const fresh = await api.patch(path, { hourlyWage: 25 }).set("If-Match", theirs.headers.etag);
    expect(fresh.status).toBe(200);
    expect(fresh.body.hourlyWage).toBe(25);
    expect((await api.get(path)).headers.etag).toBe(fresh.headers.etag);
  });

  it("lets a GraphQL mutation pass the version it read, and the database refuses a stale one", async () => {
    const api = t.as(org.token);
    const created = await api.post(`/api/organizations/${org.id}/locations`, { name: "Dock", timezone: "UTC" });
    const read = await api.get(`/api/organizations/${org.id}/locations/${created.body.id}`);
    expect(read.headers.etag).toBe(`"${created.body.id}@${created.body.updatedAt}"`);
    const rename = (name: string, ifMatch: string) =>
      t.http
        .post("/graphql")
        .set("Authorization", `Bearer ${org.token}`)
        .set("If-Match", ifMatch)
        .send({
          query: "mutation($id: ID!, $name: String) { updateLocation(id: $id, input: { name: $name }) { name updatedAt } }",
          variables: { id: created.body.id, name },
        });

    const first = await rename("Dock A", read.headers.etag);
    expect(first.body.errors).toBeUndefined();
    // The same, now stale, version again: the write itself is refused, in the database.
    const stale = await rename("Dock B", read.headers.etag);
    expect(stale.body.errors[0].extensions.code).toBe("PRECONDITION_FAILED");
    expect((await api.get(`/api/organizations/${org.id}/locations/${created.body.id}`)).body.name).toBe("Dock A");
    const fresh = await rename("Dock C", `"${created.body.id}@${first.body.data.updateLocation.updatedAt}"`);
    expect(fresh.body.data.updateLocation.name).toBe("Dock C");
  });

  it("refuses an If-Match that names no version, in GraphQL as in REST, and writes nothing", async () => {
    const api = t.as(org.token);
    const created = await api.post(`/api/organizations/${org.id}/locations`, { name: "Yard", timezone: "UTC" });
    const path = `/api/organizations/${org.id}/locations/${created.body.id}`;
    for (const ifMatch of ["x@y", '"x@y"', "W/nonsense"]) {
      const rest = await api.patch(path, { name: "Yard REST" }).set("If-Match", ifMatch);
      expect(rest.status).toBe(412);
      const gql = await t.http
        .post("/graphql")
        .set("Authorization", `Bearer ${org.token}`)
        .set("If-Match", ifMatch)
        .send({ query: 'mutation($id: ID!) { updateLocation(id: $id, input: { name: "Yard GraphQL" }) { name } }', variables: { id: created.body.id } });
      expect(gql.status).toBe(412);
      expect(gql.body.errors[0].extensions).toMatchObject({ code: "PRECONDITION_FAILED" });
      expect(rest.body.error.message).toBe(gql.body.errors[0].message);
    }
    expect((await api.get(path)).body.name).toBe("Yard");
    // "*" sets no condition on either.
    expect((await api.patch(path, { name: "Yard 2" }).set("If-Match", "*")).status).toBe(200);
  });
});

describe("the version guard of every table", () => {
  let t: TestService;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await TestService.start({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } });
    org = await t.organization();
  });
  afterAll(() => t.stop());

  const gql = (ifMatch: string, query: string, variables: Record<string, unknown>) =>
    t.http.post("/graphql").set("Authorization", `Bearer ${org.token}`).set("If-Match", ifMatch).send({ query, variables });

  it("guards every table that has updated_at", async () => {
    const unguarded = await t.runtime.db.query(`
      SELECT c.table_name FROM information_schema.columns c
        JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema
       WHERE c.table_schema = 'public' AND tb.table_type = 'BASE TABLE' AND c.column_name = 'updated_at'
         AND NOT EXISTS (SELECT 1 FROM information_schema.triggers tr
                          WHERE tr.event_object_schema = 'public' AND tr.event_object_table = c.table_name AND tr.trigger_name = 'guard_version')`);
    expect(unguarded).toEqual([]);
  });

  it("refuses a GraphQL change of a webhook endpoint made from a stale read (412), as REST does", async () => {
    const created = await t.as(org.token).post(`/api/organizations/${org.id}/webhook-endpoints`, { url: "http://127.0.0.1:9/in" });
    const stale = `"${created.body.id}@${created.body.updatedAt}"`;
    t.clock.advance(1000);
    expect((await t.as(org.token).patch(`/api/organizations/${org.id}/webhook-endpoints/${created.body.id}`, { description: "theirs" })).status).toBe(200);
    const mine = await gql(stale, 'mutation ($id: ID!) { updateWebhookEndpoint(id: $id, input: { description: "mine" }) { description } }', {
      id: created.body.id,
    });
    expect(mine.body.errors[0].extensions.code).toBe("PRECONDITION_FAILED");
    expect((await t.as(org.token).get(`/api/organizations/${org.id}/webhook-endpoints/${created.body.id}`)).body.description).toBe("theirs");
  });

  it("refuses a GraphQL change of a compliance profile made from a stale read, naming it by its location", async () => {
    const location = await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name: "Guarded", timezone: "UTC" });
    const path = `/api/organizations/${org.id}/locations/${location.body.id}/compliance`;
    const first = await t.as(org.token).patch(path, { dailyOvertimeHours: 8 });
    expect(first.status).toBe(200);
    const stale = `"${location.body.id}@${first.body.updatedAt}"`;
    t.clock.advance(1000);
    expect((await t.as(org.token).patch(path, { dailyOvertimeHours: 9 })).status).toBe(200);
    const mutation = "mutation ($id: ID!) { updateComplianceProfile(locationId: $id, input: { dailyOvertimeHours: 10 }) { dailyOvertimeHours } }";
    const mine = await gql(stale, mutation, { id: location.body.id });
    expect(mine.body.errors[0].extensions.code).toBe("PRECONDITION_FAILED");
    const current = (await t.as(org.token).get(path)).body;
    expect(Number(current.dailyOvertimeHours)).toBe(9);
    const fresh = await gql(`"${location.body.id}@${current.updatedAt}"`, mutation, { id: location.body.id });
    expect(fresh.body.errors).toBeUndefined();
  });
});
