import { TestOrganization, TestService } from "../support/harness";

describe("audit trail", () => {
  let t: TestService;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization();
  });
  afterAll(() => t.stop());

  it("records who changed what, with the record before and after, readable by resource and actor", async () => {
    // The manager acts through a key of their own, not the organization's first one.
    const tablet = (await t.as(org.token).post(`/api/organizations/${org.id}/api-keys`, { name: "Kitchen tablet" })).body;
    const { staff: manager } = await t.staffWithToken(org, "Manager");
    const token = await t.token(tablet.secret, manager.id);
    const api = t.as(token);
    const created = await api.post(`/api/organizations/${org.id}/roles`, { name: "Cook", hourlyWage: 18 });
    await api.patch(`/api/organizations/${org.id}/roles/${created.body.id}`, { hourlyWage: 19.5 });
    await api.delete(`/api/organizations/${org.id}/roles/${created.body.id}`);

    const trail = await t.as(org.token).get(`/api/organizations/${org.id}/audit-events?resourceType=roles&resourceId=${created.body.id}`);
    expect(trail.status).toBe(200);
    expect(trail.body.map((e: { action: string }) => e.action)).toEqual(["delete", "update", "insert"]);
    const [deleted, updated, inserted] = trail.body;
    expect(inserted).toMatchObject({ actorStaffId: manager.id, resourceType: "roles", before: null });
    expect(inserted.after.name).toBe("Cook");
    expect(updated.before.hourly_wage).toBe(18);
    expect(updated.after.hourly_wage).toBe(19.5);
    expect(deleted.after).toBeNull();
    expect(inserted.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(trail.body.map((e: { actorApiKeyId: string }) => e.actorApiKeyId)).toEqual([tablet.apiKey.id, tablet.apiKey.id, tablet.apiKey.id]);

    const byActor = await t.as(org.token).get(`/api/organizations/${org.id}/audit-events?actorStaffId=${manager.id}`);
    expect(byActor.body.length).toBe(3);
    const future = await t.as(org.token).get(`/api/organizations/${org.id}/audit-events?from=2999-01-01T00:00:00Z`);
    expect(future.body).toEqual([]);
    expect((await t.as(org.token).get(`/api/organizations/${org.id}/audit-events?from=yesterday`)).status).toBe(400);

    const gql = await t.gql(org.token, `{ auditEvents(first: 2, resourceType: "roles") { nodes { action } pageInfo { hasNextPage } } }`);
    expect(gql.data?.auditEvents).toEqual({ nodes: [{ action: "delete" }, { action: "update" }], pageInfo: { hasNextPage: true } });
    const { token: workerToken } = await t.staffWithToken(org, "Worker");
    expect((await t.as(workerToken).get(`/api/organizations/${org.id}/audit-events`)).status).toBe(403);
  });

  it("keeps an organization's trail to itself and never shows secrets", async () => {
    const other = await t.organization("Other");
    const mine = await t.as(other.token).get(`/api/organizations/${other.id}/audit-events?resourceType=roles`);
    expect(mine.body).toEqual([]);
    const keys = await t.as(org.token).get(`/api/organizations/${org.id}/audit-events?resourceType=api_keys`);
    expect(keys.body.length).toBeGreaterThan(0);
    expect(JSON.stringify(keys.body)).not.toContain("secret_hash");
  });

  // Left out: the trails, logs and queues themselves, and shift_break_lists, which the database derives from shift_breaks (audited).
  it("has a trigger on every tenant table", async () => {
    const missing: { table_name: string }[] = await t.runtime.db.query(`
      SELECT c.table_name FROM information_schema.columns c
        JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema AND tb.table_type = 'BASE TABLE'
       WHERE c.table_schema = 'public' AND c.column_name = 'organization_id' AND c.table_name NOT IN ('audit_events', 'idempotency_keys', 'events', 'event_sequences', 'webhook_deliveries', 'webhook_attempts', 'webhook_endpoint_secrets', 'shift_break_lists')
         AND NOT EXISTS (SELECT 1 FROM information_schema.triggers tr WHERE tr.event_object_table = c.table_name AND tr.trigger_name = 'audit')`);
    expect(missing).toEqual([]);
  });
});
