import { PostgresQueryRunner } from "typeorm/driver/postgres/PostgresQueryRunner";

/** Counts the SQL statements sent through TypeORM (every query of the service goes through a query runner). */
export function countStatements() {
  const spy = jest.spyOn(PostgresQueryRunner.prototype, "query");
  return {
    get count() {
      return spy.mock.calls.length;
    },
    /** The statements' SQL, in order. */
    get sql(): string[] {
      return spy.mock.calls.map((call) => String(call[0]));
    },
    /** Ends the count; read `count` and `sql` before, as this forgets them. */
    stop: () => spy.mockRestore(),
  };
}
