import { types as pgTypes } from "pg";
import { DataSource } from "typeorm";
import { dataSourceOptions } from "../../ormconfig";
import { Config } from "../config";
// Timestamps are read by a parser of our own: see timestamp-parser.ts.
import "./timestamp-parser";

// Calendar dates stay `YYYY-MM-DD` strings: a Date would shift them by the server's time zone.
pgTypes.setTypeParser(pgTypes.builtins.DATE, (v) => v);

const MIGRATION_LOCK = 727_001;

export async function openDatabase(config: Config): Promise<DataSource> {
  const db = new DataSource(dataSourceOptions(config));
  await db.initialize();
  return db;
}

/**
 * Applies pending migrations. On a PostgreSQL server an advisory lock keeps two starting
 * processes from running them at once.
 */
export async function migrate(db: DataSource): Promise<string[]> {
  const lockRunner = db.createQueryRunner();
  const isServer = !(db.options as { driver?: unknown }).driver;
  try {
    if (isServer) await lockRunner.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    else await lockRunner.release();
    const applied = await db.runMigrations({ transaction: "each" });
    return applied.map((m) => m.name);
  } finally {
    if (isServer) {
      await lockRunner.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
      await lockRunner.release();
    }
  }
}
