import { TestOrganization, TestService } from "../support/harness";

/**
 * Through PgBouncer in transaction pooling mode (TEST_PGBOUNCER_URL, e.g.
 * postgresql://postgres@127.0.0.1:6432/test): consecutive transactions of one client connection
 * run on different server sessions, and one session serves many clients, so nothing a request
 * tells the database may outlive its transaction.
 */
const pgbouncer = process.env.TEST_PGBOUNCER_URL;
(pgbouncer ? describe : describe.skip)("behind PgBouncer in transaction mode", () => {
  let t: TestService;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await TestService.start({ serverUrl: pgbouncer });
    org = await t.organization();
  });
  afterAll(() => t.stop());

  it("records each of 20 concurrent writes under its own actor", async () => {
    const people = await Promise.all(Array.from({ length: 20 }, () => t.staffWithToken(org, "Manager")));
    const created = await Promise.all(
      people.map(({ token }, i) => t.as(token).post(`/api/organizations/${org.id}/roles`, { name: `Role ${i}`, hourlyWage: 10 + i })),
    );
    expect(created.map((r) => r.status)).toEqual(people.map(() => 201));
    const updated = await Promise.all(
      people.map(({ token }, i) => t.as(token).patch(`/api/organizations/${org.id}/roles/${created[i].body.id}`, { hourlyWage: 30 + i })),
    );
    expect(updated.map((r) => r.status)).toEqual(people.map(() => 200));
    // A delete is one statement outside any transaction of the service's own.
    const deleted = await Promise.all(people.map(({ token }, i) => t.as(token).delete(`/api/organizations/${org.id}/roles/${created[i].body.id}`)));
    expect(deleted.map((r) => r.status)).toEqual(people.map(() => 204));

    const trail = await t.as(org.token).get(`/api/organizations/${org.id}/audit-events?resourceType=roles&limit=1000`);
    const byRole = new Map<string, { action: string; actorStaffId: string | null }[]>();
    for (const e of trail.body) byRole.set(e.resourceId, [...(byRole.get(e.resourceId) ?? []), e]);
    people.forEach(({ staff }, i) => {
      const events = byRole.get(created[i].body.id) ?? [];
      expect(events.map((e) => [e.action, e.actorStaffId])).toEqual([
        ["delete", staff.id],
        ["update", staff.id],
        ["insert", staff.id],
      ]);
    });
  });

  it("lets an If-Match guard only its own write", async () => {
    const api = t.as(org.token);
    const roles = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api.post(`/api/organizations/${org.id}/roles`, { name: `Guarded ${i}`, hourlyWage: 10 })),
    );
    const paths = roles.map((r) => `/api/organizations/${org.id}/roles/${r.body.id}`);
    const reads = await Promise.all(paths.map((p) => api.get(p)));
    // Every role changes once, so the ETags read above are stale.
    await Promise.all(paths.map((p) => api.patch(p, { hourlyWage: 11 })));

    // For each role at once: a change from the stale read, and a change that names no version.
    const answers = await Promise.all(
      paths.flatMap((p, i) => [api.patch(p, { name: `Stale ${i}` }).set("If-Match", reads[i].headers.etag), api.patch(p, { hourlyWage: 12 + i })]),
    );
    expect(answers.map((r) => r.status)).toEqual(paths.flatMap(() => [412, 200]));
    const after = await Promise.all(paths.map((p) => api.get(p)));
    expect(after.map((r) => [r.body.name, r.body.hourlyWage])).toEqual(paths.map((_, i) => [`Guarded ${i}`, 12 + i]));
  });

  it("sets the service's timeouts as the database's defaults, not as connection options", async () => {
    const rows: { setting: string }[] = await t.runtime.db.query(
      `SELECT unnest(setconfig) AS setting FROM pg_db_role_setting WHERE setrole = 0 AND setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(rows.map((r) => r.setting).sort()).toEqual(["idle_in_transaction_session_timeout=60000", "statement_timeout=15000"]);
  });
});
