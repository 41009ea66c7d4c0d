import pg from "pg";
import { DataSource, QueryRunner } from "typeorm";
import { copiedLines } from "./copy-out";

/** A read in a cursor's transaction, answering rows of the shape the caller names. */
export type SnapshotQuery = <R>(sql: string, params: unknown[]) => Promise<R[]>;

/** Rows a cursor fetches at a time. */
const BATCH_SIZE = 1000;

interface SnapshotReadOptions {
  /** Reads of its own in the same snapshot before the long read starts (on PGlite there is no other connection meanwhile). */
  before?: (query: SnapshotQuery) => Promise<void>;
}

/**
 * A long read on a query runner of its own inside a read-only REPEATABLE READ transaction, so rows
 * changed meanwhile are neither doubled nor lost. Leaving the loop early ends the transaction.
 * `read` may release the runner itself, having closed its connection (a copy left half-read).
 */
async function* inSnapshot<T>(db: DataSource, options: SnapshotReadOptions, read: (runner: QueryRunner) => AsyncGenerator<T>): AsyncGenerator<T> {
  const runner = db.createQueryRunner();
  try {
    await runner.connect();
    await runner.startTransaction("REPEATABLE READ");
    await runner.query("SET TRANSACTION READ ONLY");
    // Compiling a long read to machine code took PostgreSQL longer than the first rows do.
    await runner.query("SET LOCAL jit = off");
    if (options.before) await options.before((text, values) => runner.query(text, values));
    yield* read(runner);
    await runner.commitTransaction();
  } finally {
    if (!runner.isReleased && runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
  }
}

/** Reads `sql` through a server-side cursor (`DECLARE … CURSOR` / `FETCH n`): memory holds one batch at a time. */
async function* fetchedBatches<T>(runner: QueryRunner, sql: string, params: unknown[], batchSize: number): AsyncGenerator<T[]> {
  await runner.query(`DECLARE batch_cursor NO SCROLL CURSOR FOR ${sql}`, params);
  for (;;) {
    const rows: T[] = await runner.query(`FETCH ${batchSize} FROM batch_cursor`);
    if (rows.length) yield rows;
    if (rows.length < batchSize) break;
  }
}

/**
 * A query's rows in batches through a server-side cursor, in a snapshot of their own (inSnapshot):
 * the first batch is there as soon as PostgreSQL has it. Works on PostgreSQL and PGlite alike (on
 * PGlite the one connection stays with the reader until it finishes or is abandoned).
 */
export function cursorBatches<T>(
  db: DataSource,
  sql: string,
  params: unknown[],
  options: SnapshotReadOptions & { batchSize?: number } = {},
): AsyncGenerator<T[]> {
  return inSnapshot(db, options, (runner) => fetchedBatches<T>(runner, sql, params, options.batchSize ?? BATCH_SIZE));
}

/**
 * A one-column query's values as text, in batches, in a snapshot of their own (inSnapshot). On a
 * PostgreSQL server they are copied out (copy-out.ts); on PGlite, which has no COPY to a client,
 * read through a cursor. The column is named `value`.
 */
export function textBatches(
  db: DataSource,
  sql: string,
  params: unknown[],
  options: SnapshotReadOptions & { stallMs?: number } = {},
): AsyncGenerator<string[]> {
  return inSnapshot(db, options, async function* (runner) {
    const connection: unknown = await runner.connect();
    if (connection instanceof pg.Client) {
      // The copy is one statement for the whole read: its stall guard (copy-out.ts) bounds it instead of the statement timeout.
      await runner.query("SET LOCAL statement_timeout = 0");
      // A closing client goes back to the pool to be dropped, never handed out again.
      const discard = () => {
        connection.end().catch(() => undefined);
        void runner.release();
      };
      yield* copiedLines(connection, sql, params, discard, options.stallMs);
    } else {
      for await (const rows of fetchedBatches<{ value: string }>(runner, sql, params, BATCH_SIZE)) yield rows.map((r) => r.value);
    }
  });
}
