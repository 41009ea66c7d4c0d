import { EntityManager } from "typeorm";

/**
 * The rows an `UPDATE … RETURNING` or `DELETE … RETURNING` answers. TypeORM's `query` gives
 * `[rows, count]` for these on the pg driver but the rows alone on PGlite; its structured result
 * holds the rows on both. Outside a transaction a query runner is borrowed for the one statement.
 */
export async function updateReturning<T>(manager: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    const result = await runner.query(sql, params, true);
    return result.records as T[];
  } finally {
    if (runner !== manager.queryRunner) await runner.release();
  }
}
