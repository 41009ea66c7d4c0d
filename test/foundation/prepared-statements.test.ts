import { QueryRunner } from "typeorm";
import { dataSourceOptions } from "../../ormconfig";
import { pendingEvents } from "../../src/modules/events";
import { PreparingClient } from "../../src/database/prepared-statements";
import { CountingClient } from "../../src/database/statement-count";
import { TestService } from "../support/harness";

const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

/** The texts of the statements the runner's connection has prepared. */
async function prepared(runner: QueryRunner): Promise<string[]> {
  const rows: { statement: string }[] = await runner.query("SELECT statement FROM pg_prepared_statements");
  return rows.map((r) => r.statement);
}

describe("statements sent as named prepared statements on a PostgreSQL server", () => {
  let t: TestService;
  let runner: QueryRunner;
  beforeAll(async () => {
    t = await TestService.start();
    runner = t.runtime.db.createQueryRunner();
  });
  afterAll(async () => {
    await runner?.release();
    await t.stop();
  });

  onPostgres("prepares a text with values the second time the process sees it, and never one without", async () => {
    const text = "SELECT $1::int + 1 AS next -- prepared-statements test, once then twice";
    expect((await runner.query(text, [1]))[0].next).toBe(2);
    expect(await prepared(runner)).not.toContain(text);
    expect((await runner.query(text, [2]))[0].next).toBe(3);
    expect((await runner.query(text, [3]))[0].next).toBe(4);
    expect(await prepared(runner)).toContain(text);

    const plain = "SELECT 1 AS one -- prepared-statements test, no values";
    await runner.query(plain);
    await runner.query(plain);
    expect(await prepared(runner)).not.toContain(plain);
  });

  onPostgres("prepares the read of a transaction's pending events, which every unit of work makes before it commits", async () => {
    const own = t.runtime.db.createQueryRunner();
    try {
      for (let i = 0; i < 3; i++) expect(await pendingEvents(own.manager)).toEqual([]);
      expect((await prepared(own)).filter((text) => text.includes("current_setting($1, true)"))).toHaveLength(1);
    } finally {
      await own.release();
    }
  });

  onPostgres("keeps at most 100 prepared on one connection, and answers the texts past them unnamed", async () => {
    const texts = Array.from({ length: 120 }, (_, i) => `SELECT $1::int * ${i} AS product -- prepared-statements test, text ${i}`);
    for (const round of [1, 2]) {
      for (const [i, text] of texts.entries()) expect((await runner.query(text, [round]))[0].product).toBe(round * i);
    }
    const kept = await prepared(runner);
    expect(kept).toHaveLength(100);
    expect(texts.filter((text) => kept.includes(text)).length).toBeGreaterThan(0);
  });

  it("sends unnamed statements through a client that only counts them when DATABASE_PREPARED_STATEMENTS is off", () => {
    const on = dataSourceOptions({ databaseUrl: "postgresql://localhost/x", dataDir: "", preparedStatements: true }) as { extra?: { Client?: unknown } };
    const off = dataSourceOptions({ databaseUrl: "postgresql://localhost/x", dataDir: "", preparedStatements: false }) as { extra?: { Client?: unknown } };
    expect(on.extra?.Client).toBe(PreparingClient);
    expect(off.extra?.Client).toBe(CountingClient);
  });
});
