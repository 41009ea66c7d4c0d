import { EntityManager } from "typeorm";

/**
 * The rows an `UPDATE … RETURNING` or `DELETE … RETURNING` answers. TypeORM's `query` gives
 * `[rows, count]` for these on the pg driver but the rows alone on PGlite; its structured result
 * holds the rows on both. A write runs in a unit of work (unit-of-work.ts): `manager` is its.
 */
export async function updateReturning<T>(manager: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  if (!manager.queryRunner) throw new Error("A write runs in a unit of work: pass the manager it gives (database/unit-of-work.ts)");
  const result = await manager.queryRunner.query(sql, params, true);
  return result.records as T[];
}
