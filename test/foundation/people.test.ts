import { TestOrganization, TestService } from "../support/harness";

describe("locations, roles, staff and access roles", () => {
  let t: TestService;
  let org: TestOrganization;
  const base = () => `/api/organizations/${org.id}`;
  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization("Acme");
  });
  afterAll(() => t.stop());

  it("creates, reads, lists, changes and deletes a location", async () => {
    const api = t.as(org.token);
    const created = await api.post(`${base()}/locations`, { name: "Downtown", timezone: "America/New_York" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Downtown", timezone: "America/New_York", organizationId: org.id, externalId: null });
    const id = created.body.id;
    expect((await api.get(`${base()}/locations/${id}`)).body.name).toBe("Downtown");
    expect((await api.patch(`${base()}/locations/${id}`, { name: "Uptown", externalId: "LOC-7" })).body).toMatchObject({ name: "Uptown", externalId: "LOC-7" });
    expect((await api.get(`${base()}/locations`)).body.map((l: { id: string }) => l.id)).toContain(id);
    expect((await api.delete(`${base()}/locations/${id}`)).status).toBe(204);
    expect((await api.get(`${base()}/locations/${id}`)).status).toBe(404);
    expect((await api.get(`${base()}/locations/not-a-uuid`)).status).toBe(404);
  });

  it("refuses control characters in names and payroll identifiers, which land in CSV rows payroll importers read", async () => {
    const named = await t.organization("Names");
    const api = t.as(named.token);
    const at = `/api/organizations/${named.id}`;
    for (const [path, body, field] of [
      [`${at}/roles`, { name: "Cook\nLine" }, "name"],
      [`${at}/locations`, { name: "Back\roffice", timezone: "UTC" }, "name"],
      [`${at}/staff`, { name: "Ann", payrollId: "P\t7" }, "payrollId"],
      [`${at}/staff`, { name: "Ann\u2028Lee" }, "name"],
    ] as const) {
      const refused = await api.post(path, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: "VALIDATION_FAILED",
        details: [{ field, message: `${field} must not contain control characters such as line breaks or tabs` }],
      });
    }
    const viaGraphql = await t.gql(named.token, `mutation { createRole(input: { name: "Cook\\nLine" }) { id } }`);
    expect(viaGraphql.errors?.[0].extensions).toMatchObject({ code: "VALIDATION_FAILED" });
    // Letters of every script, accents and emoji are names like any other.
    expect((await api.post(`${at}/roles`, { name: "Cuisinière 料理人 🍳" })).status).toBe(201);
  });

  it("keeps a location or role that shifts still use, saying so (409)", async () => {
    const busy = await t.organization("Busy");
    const api = t.as(busy.token);
    const at = `/api/organizations/${busy.id}`;
    const loc = (await api.post(`${at}/locations`, { name: "Busy", timezone: "UTC" })).body;
    const role = (await api.post(`${at}/roles`, { name: "Busy role" })).body;
    const staff = (await api.post(`${at}/staff`, { name: "Busy staff", roleIds: [role.id], locationIds: [loc.id] })).body;
    expect(
      (
        await api.post("/api/timesheets", {
          employeeId: staff.id,
          locationId: loc.id,
          roleId: role.id,
          startTime: "2026-03-01T09:00:00Z",
          endTime: "2026-03-01T17:00:00Z",
        })
      ).status,
    ).toBe(201);
    for (const path of [`${at}/locations/${loc.id}`, `${at}/roles/${role.id}`]) {
      const refused = await api.delete(path);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toMatch(/still used by shifts/);
      expect((await api.get(path)).status).toBe(200);
    }
  });

  it("validates locations: IANA zone, types, unknown fields, nulls", async () => {
    const api = t.as(org.token);
    const cases: [object, string][] = [
      [{ name: "A", timezone: "EST-ish" }, "timezone"],
      [{ name: "A" }, "timezone"],
      [{ name: 5, timezone: "UTC" }, "name"],
      [{ name: "", timezone: "UTC" }, "name"],
      [{ name: "A", timezone: "UTC", floor: 2 }, "floor"],
    ];
    for (const [body, field] of cases) {
      const res = await api.post(`${base()}/locations`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_FAILED");
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it("pages long lists with limit and cursor", async () => {
    const api = t.as(org.token);
    for (const name of ["R1", "R2", "R3", "R4", "R5"]) await api.post(`${base()}/roles`, { name, hourlyWage: 15 });
    const first = await api.get(`${base()}/roles?limit=2`);
    expect(first.body.map((r: { name: string }) => r.name)).toEqual(["R1", "R2"]);
    const cursor = first.headers["x-next-cursor"];
    expect(cursor).toBeTruthy();
    expect(first.headers.link).toContain('rel="next"');
    const second = await api.get(`${base()}/roles?limit=2&cursor=${cursor}`);
    expect(second.body.map((r: { name: string }) => r.name)).toEqual(["R3", "R4"]);
    expect((await api.get(`${base()}/roles?limit=abc`)).status).toBe(400);
    expect((await api.get(`${base()}/roles?limit=0`)).status).toBe(400);
    expect((await api.get(`${base()}/roles?limit=5000`)).status).toBe(400);
    expect((await api.get(`${base()}/roles?cursor=garbage`)).status).toBe(400);
    expect((await api.get(`${base()}/roles?colour=red`)).status).toBe(400);
    const gql = await t.gql(org.token, "{ roles(first: 2) { nodes { name } pageInfo { hasNextPage endCursor } } }");
    expect(gql.data?.roles.nodes).toEqual([{ name: "R1" }, { name: "R2" }]);
    expect(gql.data?.roles.pageInfo.hasNextPage).toBe(true);
  });

  it("manages staff members with roles, wages per role, locations and a unique external id", async () => {
    const api = t.as(org.token);
    const loc = (await api.post(`${base()}/locations`, { name: "Kitchen", timezone: "Europe/Berlin" })).body;
    const cook = (await api.post(`${base()}/roles`, { name: "Cook", hourlyWage: 18.5 })).body;
    const created = await api.post(`${base()}/staff`, {
      name: "Ann Lee",
      externalEmployeeId: "E-100",
      payrollId: "P-9",
      email: "ann@example.com",
      roleIds: [cook.id],
      roleWages: [{ roleId: cook.id, hourlyWage: 21.25 }],
      locationIds: [loc.id],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Ann Lee",
      externalEmployeeId: "E-100",
      payrollId: "P-9",
      roleIds: [cook.id],
      locationIds: [loc.id],
      active: true,
      roleWages: [{ roleId: cook.id, hourlyWage: 21.25 }],
    });
    const roles = (await api.get(`${base()}/access-roles`)).body as { id: string; name: string }[];
    expect(created.body.accessRoleId).toBe(roles.find((r) => r.name === "Worker")!.id);

    const duplicate = await api.post(`${base()}/staff`, { name: "Other", externalEmployeeId: "E-100" });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.message).toMatch(/externalEmployeeId/);
    const badRole = await api.post(`${base()}/staff`, { name: "Other", roleIds: ["00000000-0000-4000-8000-000000000000"] });
    expect([badRole.status, badRole.body.error.code, badRole.body.error.details[0].field]).toEqual([404, "NOT_FOUND", "roleIds"]);

    const filtered = await api.get(`${base()}/staff?locationId=${loc.id}`);
    expect(filtered.body.map((s: { id: string }) => s.id)).toEqual([created.body.id]);

    const changed = await api.patch(`${base()}/staff/${created.body.id}`, { payrollId: "P-10", locationIds: [] });
    expect(changed.body).toMatchObject({ payrollId: "P-10", locationIds: [], roleIds: [cook.id] });

    // Staff who leave keep their history: a soft delete.
    expect((await api.delete(`${base()}/staff/${created.body.id}`)).status).toBe(204);
    const gone = await api.get(`${base()}/staff/${created.body.id}`);
    expect(gone.body.active).toBe(false);
    expect(gone.body.deletedAt).toBe("2026-03-02T12:00:00.000Z");
    expect((await api.get(`${base()}/staff`)).body.map((s: { id: string }) => s.id)).not.toContain(created.body.id);
    expect((await api.get(`${base()}/staff?includeInactive=true`)).body.map((s: { id: string }) => s.id)).toContain(created.body.id);
    // Their external id is free again for a new hire.
    expect((await api.post(`${base()}/staff`, { name: "New", externalEmployeeId: "E-100" })).status).toBe(201);
  });

  it("resolves staff relations in GraphQL", async () => {
    // Staff of each access role, so that a loader answering one node's role for another shows.
    await t.staffWithToken(org, "Admin");
    await t.staffWithToken(org, "Manager");
    const roleNames = new Map(((await t.as(org.token).get(`${base()}/access-roles`)).body as { id: string; name: string }[]).map((r) => [r.id, r.name]));
    const res = await t.gql(
      org.token,
      "{ staffMembers(first: 50) { nodes { name accessRoleId roles { name } locations { name } accessRole { id name } roleWages { roleId hourlyWage } } } }",
    );
    expect(res.errors).toBeUndefined();
    const nodes = res.data?.staffMembers.nodes as { accessRoleId: string; accessRole: { id: string; name: string } }[];
    expect(new Set(nodes.map((n) => n.accessRole.name))).toEqual(new Set(["Admin", "Manager", "Worker"]));
    for (const node of nodes) expect(node.accessRole).toEqual({ id: node.accessRoleId, name: roleNames.get(node.accessRoleId) });
  });

  it("manages access roles; built-in ones are fixed and one in use cannot be deleted", async () => {
    const api = t.as(org.token);
    const roles = (await api.get(`${base()}/access-roles`)).body as { id: string; name: string; isSystem: boolean }[];
    expect(roles.map((r) => r.name).sort()).toEqual(["Admin", "Manager", "Worker"]);
    const admin = roles.find((r) => r.name === "Admin")!;
    expect((await api.patch(`${base()}/access-roles/${admin.id}`, { name: "Boss" })).status).toBe(409);
    expect((await api.delete(`${base()}/access-roles/${admin.id}`)).status).toBe(409);
    expect((await api.post(`${base()}/access-roles`, { name: "Bad", permissions: ["fly:away"] })).status).toBe(400);

    const lead = await api.post(`${base()}/access-roles`, { name: "Shift lead", permissions: ["staff:read", "locations:read"] });
    expect(lead.status).toBe(201);
    const changed = await api.patch(`${base()}/access-roles/${lead.body.id}`, { permissions: ["staff:read"] });
    expect(changed.body.permissions).toEqual(["staff:read"]);
    const holder = await api.post(`${base()}/staff`, { name: "Lead", accessRoleId: lead.body.id });
    const inUse = await api.delete(`${base()}/access-roles/${lead.body.id}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.error.message).toMatch(/1 staff member/);
    await api.patch(`${base()}/staff/${holder.body.id}`, { accessRoleId: admin.id });
    expect((await api.delete(`${base()}/access-roles/${lead.body.id}`)).status).toBe(204);
  });

  it("lets an access role's permissions decide: a Worker cannot change people or places", async () => {
    const { token } = await t.staffWithToken(org, "Worker");
    const worker = t.as(token);
    expect((await worker.get(`${base()}/locations`)).status).toBe(200);
    for (const res of [
      await worker.post(`${base()}/locations`, { name: "X", timezone: "UTC" }),
      await worker.post(`${base()}/roles`, { name: "X" }),
      await worker.post(`${base()}/staff`, { name: "X" }),
      await worker.get(`${base()}/staff`),
      await worker.get(`${base()}/api-keys`),
      await worker.post(`${base()}/access-roles`, { name: "X", permissions: [] }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("FORBIDDEN");
    }
    const gql = await t.gql(token, 'mutation { createRole(input: { name: "X" }) { id } }');
    expect(gql.errors?.[0].extensions.code).toBe("FORBIDDEN");
    const { token: managerToken } = await t.staffWithToken(org, "Manager");
    expect((await t.as(managerToken).post(`${base()}/roles`, { name: "By manager" })).status).toBe(201);
    expect((await t.as(managerToken).get(`${base()}/api-keys`)).status).toBe(403);
  });

  it("turns away a staff member's token once they leave", async () => {
    const { staff, token } = await t.staffWithToken(org, "Manager");
    expect((await t.as(token).get(`${base()}/roles`)).status).toBe(200);
    await t.as(org.token).delete(`${base()}/staff/${staff.id}`);
    expect((await t.as(token).get(`${base()}/roles`)).status).toBe(401);
  });
});
