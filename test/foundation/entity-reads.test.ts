import { EntityMetadata, In, ObjectLiteral } from "typeorm";
import { findByIds, findOneBy, findOneByOrFail, findWhere } from "../../src/common/entity-reads";
import { TestService } from "../support/harness";
import { countStatements } from "../support/statements";
import { fileTimeOff } from "../support/time-off";
import { activePolicy, scheduleWorkplace, timeOffWorkplace } from "../support/workplace";
import { Location } from "../../src/modules/locations/location.entity";
import { TimeOffPolicy } from "../../src/modules/timeoff/policies/policy.entity";

describe("entity reads without the query builder", () => {
  let t: TestService;
  beforeAll(async () => (t = await TestService.start()));
  afterAll(() => t.stop());

  /** Up to `n` rows' primary keys of an entity's table, as property values. */
  const keysOf = async (metadata: EntityMetadata, n: number): Promise<Record<string, string>[]> => {
    const columns = metadata.primaryColumns;
    const rows: Record<string, unknown>[] = await t.runtime.db.query(
      `SELECT ${columns.map((c) => `"${c.databaseName}"::text AS "${c.propertyName}"`).join(", ")} FROM "${metadata.tableName}" LIMIT ${n}`,
    );
    return rows as Record<string, string>[];
  };

  it("answers every entity as TypeORM's findOneBy and findBy do: the same class, columns, types and transformed values", async () => {
    // Records of most kinds: an organization with people, a schedule, breaks, time off and its policies.
    const w = await timeOffWorkplace(t);
    await fileTimeOff(t, w.org, w.worker.id, "2026-03-10T09:00:00", "2026-03-10T17:00:00", "pending");
    const s = await scheduleWorkplace(t);
    const cook = await s.worker();
    const entry = await t
      .as(s.manager)
      .post(`${s.base}/schedules`, { workerId: cook.id, roleId: s.roleId, startTime: "2026-03-04T09:00:00", endTime: "2026-03-04T17:00:00" });
    expect(entry.status).toBe(201);
    const manager = t.runtime.db.manager;
    const compared: string[] = [];
    for (const metadata of t.runtime.db.entityMetadatas) {
      const keys = await keysOf(metadata, 5);
      if (!keys.length) continue;
      const target = metadata.target as new () => ObjectLiteral;
      const repo = manager.getRepository(target);
      for (const key of keys) {
        const ours = await findOneBy(manager, target, key);
        const theirs = await repo.findOneBy(key);
        expect(ours).toEqual(theirs);
        expect(Object.getPrototypeOf(ours)).toBe(Object.getPrototypeOf(theirs));
      }
      if (metadata.findColumnWithPropertyName("organizationId") && metadata.primaryColumns.map((c) => c.propertyName).join() === "id") {
        const rows = await repo.findBy({ id: In(keys.map((k) => k.id)) });
        const organizationId = rows[0]?.organizationId;
        const mine = rows.filter((r) => r.organizationId === organizationId);
        const ours = await findByIds(manager, target, organizationId, [...mine.map((r) => r.id), "00000000-0000-4000-8000-000000000000"]);
        const byId = (list: ObjectLiteral[]) => [...list].sort((a, b) => String(a.id).localeCompare(String(b.id)));
        expect(byId(ours)).toEqual(byId(mine));
      }
      compared.push(metadata.name);
    }
    // The kinds this organization holds, numeric transformers and dates among them.
    expect(compared).toEqual(
      expect.arrayContaining([
        "Organization",
        "Location",
        "Role",
        "StaffMember",
        "ScheduleEntry",
        "TimeOffPolicy",
        "TimeOffRequest",
        "WorkerPolicy",
        "BreakType",
      ]),
    );
  });

  it("leaves soft-deleted rows out unless asked, fails as TypeORM does, and locks the row it reads until the transaction ends", async () => {
    const w = await timeOffWorkplace(t);
    const manager = t.runtime.db.manager;
    const policyId = await activePolicy(t, w);
    const key = { organizationId: w.org.id, id: policyId };
    expect((await findOneBy(manager, TimeOffPolicy, key))?.id).toBe(policyId);
    await manager.query("UPDATE time_off_policies SET deleted_at = now() WHERE id = $1", [policyId]);
    expect(await findOneBy(manager, TimeOffPolicy, key)).toBeNull();
    expect(await manager.getRepository(TimeOffPolicy).findOneBy(key)).toBeNull();
    expect((await findOneBy(manager, TimeOffPolicy, key, { withDeleted: true }))?.deletedAt).toBeInstanceOf(Date);
    await expect(findOneByOrFail(manager, Location, { organizationId: w.org.id, id: "00000000-0000-4000-8000-000000000000" })).rejects.toThrow(
      /Could not find any entity of type "Location"/,
    );

    const statements = countStatements({ outsideRequests: true });
    await t.runtime.unitOfWork.run(async (inside) => {
      await findOneBy(inside, Location, { organizationId: w.org.id, id: w.locationId }, { lock: "update" });
      await findOneBy(inside, Location, { organizationId: w.org.id, id: w.locationId }, { lock: "share" });
      expect(await findWhere(inside, Location, "organization_id = $1", [w.org.id], { orderBy: "id", lock: "update" })).toHaveLength(1);
    });
    const sql = statements.sql;
    statements.stop();
    expect(sql.filter((q) => /FROM "locations" WHERE .* LIMIT 1 FOR UPDATE$/.test(q))).toHaveLength(1);
    expect(sql.filter((q) => /FROM "locations" WHERE .* LIMIT 1 FOR SHARE$/.test(q))).toHaveLength(1);
    expect(sql.filter((q) => /FROM "locations" WHERE \(organization_id = \$1\) ORDER BY id FOR UPDATE$/.test(q))).toHaveLength(1);
  });
});
