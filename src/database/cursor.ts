import { DataSource } from "typeorm";

/** A read in a cursor's transaction, answering rows of the shape the caller names. */
export type SnapshotQuery = <R>(sql: string, params: unknown[]) => Promise<R[]>;

/**
 * Reads a query's rows in batches through a server-side cursor (`DECLARE … CURSOR` / `FETCH n`),
 * on a query runner of its own inside a read-only transaction: memory holds one batch at a time
 * and the first batch is there as soon as PostgreSQL has it. Works on PostgreSQL and PGlite alike
 * (on PGlite the one connection stays with the reader until it finishes or is abandoned).
 * Leaving the loop early closes the cursor and ends the transaction. `before` runs its own reads
 * in the same snapshot before the cursor opens (on PGlite there is no other connection meanwhile).
 */
export async function* cursorBatches<T>(
  db: DataSource,
  sql: string,
  params: unknown[],
  options: { batchSize?: number; before?: (query: SnapshotQuery) => Promise<void> } = {},
): AsyncGenerator<T[]> {
  const batchSize = options.batchSize ?? 1000;
  const runner = db.createQueryRunner();
  try {
    await runner.connect();
    // One snapshot for the whole read, so rows changed meanwhile are neither doubled nor lost.
    await runner.startTransaction("REPEATABLE READ");
    await runner.query("SET TRANSACTION READ ONLY");
    // Compiling a long read to machine code took PostgreSQL longer than the first rows do.
    await runner.query("SET LOCAL jit = off");
    if (options.before) await options.before((text, values) => runner.query(text, values));
    await runner.query(`DECLARE batch_cursor NO SCROLL CURSOR FOR ${sql}`, params);
    for (;;) {
      const rows: T[] = await runner.query(`FETCH ${batchSize} FROM batch_cursor`);
      if (rows.length) yield rows;
      if (rows.length < batchSize) break;
    }
    await runner.commitTransaction();
  } finally {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
  }
}
