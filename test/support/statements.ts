import { DataSource } from "typeorm";
import { PostgresQueryRunner } from "typeorm/driver/postgres/PostgresQueryRunner";
import { requestActor } from "../../src/database/request-actor";

/**
 * Counts the SQL statements that requests send through TypeORM (every query of the service goes
 * through a query runner). Work of the process's own (webhook delivery woken by a commit) runs
 * outside any request and is not counted, unless `outsideRequests` (a calendar feed's fetch, which
 * has no actor).
 */
export function countStatements(options: { outsideRequests?: boolean } = {}) {
  const sql: string[] = [];
  const query = PostgresQueryRunner.prototype.query;
  const spy = jest.spyOn(PostgresQueryRunner.prototype, "query").mockImplementation(function (this: PostgresQueryRunner, ...args: Parameters<typeof query>) {
    if (options.outsideRequests || requestActor.getStore()) sql.push(String(args[0]));
    return query.apply(this, args);
  });
  return {
    get count() {
      return sql.length;
    },
    /** The statements' SQL, in order. */
    get sql(): string[] {
      return [...sql];
    },
    /** Ends the count; read `count` and `sql` before, as this forgets them. */
    stop: () => spy.mockRestore(),
  };
}

/** PostgreSQL's plan for a statement a test caught (`sql`) with `params`, as JSON text: EXPLAIN, without running it. */
export async function planOf(db: DataSource, sql: string, params: unknown[]): Promise<string> {
  const [{ "QUERY PLAN": plan }] = await db.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  return JSON.stringify(plan);
}
