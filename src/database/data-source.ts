import { types as pgTypes } from "pg";
import { AsyncLocalStorage } from "node:async_hooks";
import { DataSource, QueryRunner } from "typeorm";
import { dataSourceOptions } from "../../ormconfig";
import { Config } from "../config";
import type { PGliteDatabase } from "./pglite-pool";
// Timestamps are read by a parser of our own: see timestamp-parser.ts.
import "./timestamp-parser";

// Calendar dates stay `YYYY-MM-DD` strings: a Date would shift them by the server's time zone.
pgTypes.setTypeParser(pgTypes.builtins.DATE, (v) => v);

const MIGRATION_LOCK = 727_001;

/**
 * The service's data source: TypeORM's, with one change. While `readingThrough(runner, work)` runs
 * (a unit of work's before-commit hooks, see unit-of-work.ts), every query runner it hands out is
 * that transaction's own, so that code which reads through the data source (services, loaders,
 * repositories) sees what the transaction wrote and has not committed yet.
 */
export class ApplicationDataSource extends DataSource {
  private readonly through = new AsyncLocalStorage<QueryRunner>();

  /** Runs `work` with every read of this data source made on `runner`'s connection, inside its transaction. */
  readingThrough<T>(runner: QueryRunner, work: () => Promise<T>): Promise<T> {
    return this.through.run(sharedRunner(runner), work);
  }

  override createQueryRunner(mode?: "master" | "slave"): QueryRunner {
    return this.through.getStore() ?? super.createQueryRunner(mode);
  }
}

/**
 * A transaction's runner lent to the code that reads inside it: releasing it leaves the transaction
 * alone, and its queries take turns. Resolvers and loaders read side by side, and one connection
 * answers one statement at a time: each is sent once the one before it has answered.
 */
function sharedRunner(runner: QueryRunner): QueryRunner {
  let line: Promise<unknown> = Promise.resolve();
  const query = (...args: Parameters<QueryRunner["query"]>) => {
    const sent = line.then(() => runner.query(...args));
    line = sent.catch(() => undefined);
    return sent;
  };
  // A new object in front of the transaction's runner (which stays as it is): every other property is the runner's.
  return Object.create(runner, { release: { value: async () => undefined }, query: { value: query } }) as QueryRunner;
}

export async function openDatabase(config: Config): Promise<ApplicationDataSource> {
  const db = new ApplicationDataSource(dataSourceOptions(config));
  await db.initialize();
  return db;
}

/** How long a session may sit idle inside a transaction before PostgreSQL ends it. */
const IDLE_IN_TRANSACTION_MS = 60000;

/**
 * Applies pending migrations, then makes the service's timeouts the database's defaults. On a
 * PostgreSQL server a transaction-scoped advisory lock, held by a transaction open for the whole
 * run, keeps two starting processes from running them at once: a session lock would be taken and
 * released on different server sessions behind a pooler in transaction mode.
 *
 * The timeouts are defaults of the database (`ALTER DATABASE … SET`), not options of the
 * connection: PgBouncer refuses them as startup parameters, and a `SET` would stay on a server
 * session that the pooler hands to other clients. A session opened after the change has them.
 */
export async function migrate(db: DataSource, config: Pick<Config, "statementTimeoutMs">): Promise<{ applied: string[]; warning?: string }> {
  const lockRunner = db.createQueryRunner();
  const isServer = !(db.options as { driver?: unknown }).driver;
  try {
    if (isServer) {
      await lockRunner.startTransaction();
      await lockRunner.query("SET LOCAL idle_in_transaction_session_timeout = 0");
      await lockRunner.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    } else await lockRunner.release();
    const applied = (await db.runMigrations({ transaction: "each" })).map((m) => m.name);
    // A table a migration created without the version guard gets it (GuardEveryRecordVersion).
    if (applied.length) await db.query("SELECT guard_missing_versions()");
    if (!isServer) await (db.options as { driver: { database: PGliteDatabase } }).driver.database.keepAsTemplate();
    const warning = isServer ? await keepTimeouts(lockRunner, config) : undefined;
    if (isServer) await lockRunner.commitTransaction();
    return { applied, warning };
  } finally {
    if (isServer) {
      if (lockRunner.isTransactionActive) await lockRunner.rollbackTransaction().catch(() => undefined);
      await lockRunner.release();
    }
  }
}

async function keepTimeouts(runner: QueryRunner, config: Pick<Config, "statementTimeoutMs">): Promise<string | undefined> {
  const wanted = [`statement_timeout=${Math.trunc(config.statementTimeoutMs)}`, `idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`];
  const rows: { setting: string }[] = await runner.query(
    `SELECT unnest(setconfig) AS setting FROM pg_db_role_setting
      WHERE setrole = 0 AND setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  const missing = wanted.filter((w) => !rows.some((r) => r.setting === w));
  if (!missing.length) return undefined;
  await runner.query("SAVEPOINT timeouts");
  try {
    for (const setting of missing) {
      const [name, value] = setting.split("=");
      await runner.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET ${name} = ${value}', current_database()); END $$`);
    }
    await runner.query("RELEASE SAVEPOINT timeouts");
    return undefined;
  } catch (error) {
    // Only the database's owner may change its defaults; the service still runs, without them.
    if ((error as { driverError?: { code?: string } }).driverError?.code !== "42501") throw error;
    await runner.query("ROLLBACK TO SAVEPOINT timeouts");
    return `The database's timeouts could not be set (${wanted.join(", ")}): the service's role does not own the database`;
  }
}
