import { TestService } from "../support/harness";

/** Tables that belong to no organization: the platform's own settings and the migrations log. */
const PLATFORM_TABLES = ["platform_settings", "schema_migrations", "organizations"];

describe("every tenant table", () => {
  let t: TestService;
  beforeAll(async () => (t = await TestService.start()));
  afterAll(() => t.stop());

  it("has a non-null organization_id that leads an index", async () => {
    const tables: { table_name: string }[] = await t.runtime.db.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
    );
    const tenantTables = tables.map((r) => r.table_name).filter((n) => !PLATFORM_TABLES.includes(n));
    expect(tenantTables.length).toBeGreaterThan(5);
    const problems: string[] = [];
    for (const table of tenantTables) {
      const [column] = await t.runtime.db.query(
        "SELECT is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND column_name = 'organization_id'",
        [table],
      );
      if (!column) {
        problems.push(`${table}: no organization_id`);
        continue;
      }
      if (column.is_nullable !== "NO") problems.push(`${table}: organization_id is nullable`);
      const indexes: { indexdef: string }[] = await t.runtime.db.query("SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1", [
        table,
      ]);
      if (!indexes.some((i) => /\(organization_id[,)]/.test(i.indexdef))) problems.push(`${table}: no index led by organization_id`);
    }
    expect(problems).toEqual([]);
  });
});
