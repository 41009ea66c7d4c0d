import { textBatches } from "../../src/database/cursor";
import { inlineParameters } from "../../src/database/copy-out";
import { TestService } from "../support/harness";
import { until } from "../support/until";

const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

/** Reads every value of `sql` through textBatches, with the sizes of its batches. */
async function readAll(t: TestService, sql: string, params: unknown[]): Promise<{ values: string[]; batches: number }> {
  const values: string[] = [];
  let batches = 0;
  for await (const batch of textBatches(t.runtime.db, sql, params)) {
    values.push(...batch);
    batches++;
  }
  return { values, batches };
}

/** Sessions of the test's database running a copy. */
async function copiesRunning(t: TestService): Promise<number> {
  const rows: { n: number }[] = await t.runtime.db.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY (%' AND pid <> pg_backend_pid()",
  );
  return rows[0].n;
}

describe("long reads of text, copied out of a PostgreSQL server or through a cursor on PGlite", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(async () => {
    await t.stop();
  });

  it("answers every value as the database holds it: escapes, tabs, newlines, and characters of several bytes across batches", async () => {
    // Values long enough that a copy sends them in several chunks, some split inside a line and inside a character.
    const sql = `SELECT concat_ws(',', n, $1::text, repeat('é€😀', n % 50), CASE WHEN n % 7 = 0 THEN E'back\\\\slash\\ttab\\nline\\rreturn' END) AS value
                   FROM generate_series(1, $2::int) n WHERE n <> ALL($3::int[]) ORDER BY n`;
    const params = ['it\'s "quoted"', 5000, [3, 4]];
    const expected: { value: string }[] = await t.runtime.db.query(sql, params);
    const { values, batches } = await readAll(t, sql, params);
    expect(values).toEqual(expected.map((r) => r.value));
    expect(values).toHaveLength(4998);
    expect(values[4]).toContain("back\\slash\ttab\nline\rreturn");
    expect(batches).toBeGreaterThan(1);
  });

  it("writes parameters into a copy as literals that read back as the same values", async () => {
    const params = ['o\'brien \\ "x"', 42, true, ["a'b", 'c"d', "e\\f", null], null];
    const sql = inlineParameters("SELECT $1::text AS a, $2::int AS b, $3::boolean AS c, $4::text[] AS d, $5::text AS e", params);
    expect(sql).not.toMatch(/\$\d/);
    expect(await t.runtime.db.query(sql)).toEqual([{ a: params[0], b: 42, c: true, d: params[3], e: null }]);
    expect(() => inlineParameters("SELECT $2", ["only one"])).toThrow("No value for $2");
    expect(() => inlineParameters("SELECT $1", [{ not: "a value" }])).toThrow("cannot be an object");
  });

  it("ends the read on the database when the reader leaves early, and the pool goes on answering", async () => {
    const reader = textBatches(t.runtime.db, "SELECT repeat('x', 200) || n AS value FROM generate_series(1, 2000000) n", []);
    const first = await reader.next();
    expect((first.value as string[]).length).toBeGreaterThan(0);
    await reader.return(undefined);
    if (t.databaseUrl) await until(async () => (await copiesRunning(t)) === 0, 10_000);
    // Every connection of the pool still answers (none was handed back mid-copy).
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => t.runtime.db.query("SELECT $1::int AS n", [i])));
    expect(answers.map((a) => a[0].n)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  // PGlite reads through a cursor, whose transaction its reader holds.
  onPostgres("gives up on a copy whose reader stops taking rows, freeing its connection", async () => {
    const reader = textBatches(t.runtime.db, "SELECT repeat('x', 200) || n AS value FROM generate_series(1, 2000000) n", [], { stallMs: 2000 });
    await reader.next();
    expect(await copiesRunning(t)).toBe(1);
    // The reader holds a batch and asks for no more: after two seconds the copy is abandoned and its session ends.
    await until(async () => (await copiesRunning(t)) === 0, 10_000);
    await expect(reader.next()).rejects.toThrow();
    expect((await t.runtime.db.query("SELECT 1 AS one"))[0].one).toBe(1);
  });
});
