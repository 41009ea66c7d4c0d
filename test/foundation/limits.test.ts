import { Writable } from "node:stream";
import pino from "pino";
import { Client } from "pg";
import { TestOrganization, TestService } from "../support/harness";

const onServer = process.env.TEST_DATABASE_URL ? it : it.skip;

describe("limits and internal errors", () => {
  let t: TestService;
  let org: TestOrganization;
  let logged = "";
  beforeAll(async () => {
    const sink = new Writable({ write: (chunk, _enc, done) => ((logged += chunk.toString()), done()) });
    t = await TestService.start({ logger: pino({ level: "error" }, sink) });
    org = await t.organization();
  });
  afterAll(() => t.stop());

  it("refuses batched GraphQL requests", async () => {
    const res = await t.http
      .post("/graphql")
      .set("Authorization", `Bearer ${org.token}`)
      .send([{ query: "{ organization { id } }" }, { query: "{ organization { id } }" }]);
    expect(res.status).toBe(400);
  });

  onServer("cancels a statement that runs past the statement timeout with a clear 503", async () => {
    const staff = await t.as(org.token).post(`/api/organizations/${org.id}/staff`, { name: "Locked" });
    // A second service on the same, already migrated, database with a short statement timeout:
    // migrations never run under it, however slow the machine.
    const timed = await TestService.start({ env: { STATEMENT_TIMEOUT_MS: "300", DATABASE_URL: t.databaseUrl! } });
    // Another session holds the staff row, so the change waits on its lock until the timeout.
    const holder = new Client({ connectionString: t.databaseUrl });
    await holder.connect();
    await holder.query("BEGIN");
    await holder.query("SELECT id FROM staff_members WHERE id = $1 FOR UPDATE", [staff.body.id]);
    try {
      const res = await timed.as(org.token).patch(`/api/organizations/${org.id}/staff/${staff.body.id}`, { name: "Changed" });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("STATEMENT_TIMEOUT");
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
      await timed.stop();
    }
    expect((await t.as(org.token).get(`/api/organizations/${org.id}/staff/${staff.body.id}`)).body.name).toBe("Locked");
  });

  it("answers a database failure with a masked 500 and logs it whole with the request id", async () => {
    await t.runtime.db.query("ALTER TABLE roles RENAME TO roles_elsewhere");
    try {
      const res = await t.as(org.token).get(`/api/organizations/${org.id}/roles`).set("X-Request-Id", "req-injected-1");
      expect(res.status).toBe(500);
      expect(res.body.error).toMatchObject({ code: "INTERNAL_SERVER_ERROR", requestId: "req-injected-1" });
      expect(JSON.stringify(res.body)).not.toMatch(/roles|SELECT|relation|at .*\.js/);
      const gql = await t.gql(org.token, "{ roles { nodes { id } } }");
      expect(gql.errors?.[0].extensions.code).toBe("INTERNAL_SERVER_ERROR");
      expect(JSON.stringify(gql)).not.toMatch(/SELECT|relation/);
      expect(logged).toMatch(/req-injected-1/);
      expect(logged).toMatch(/relation .*roles.* does not exist/);
    } finally {
      await t.runtime.db.query("ALTER TABLE roles_elsewhere RENAME TO roles");
    }
  });
});
