import "reflect-metadata";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { dataSourceOptions } from "../../ormconfig";
import { loadConfig } from "../config";
import { migrate, openDatabase } from "../database/data-source";
import type { PGliteDatabase } from "../database/pglite-pool";

/**
 * Makes the embedded database's template for the compiled migrations, unless one is kept already:
 * the build runs this, so that the first `npm start` on a new data directory copies a migrated
 * cluster instead of creating one (PGlite's initdb and every migration, most of a first start).
 */
async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "workforce-template-"));
  const config = loadConfig({ ...process.env, DATABASE_URL: "", DATA_DIR: path.join(dataDir, "data") });
  // Building the options opens nothing: the check costs no database.
  const { database } = (dataSourceOptions(config) as { driver: { database: PGliteDatabase } }).driver;
  if (database.hasTemplate()) return rmSync(dataDir, { recursive: true, force: true });
  const db = await openDatabase(config);
  try {
    // A migrated cluster this process created from nothing is kept as the template (PGliteDatabase.keepAsTemplate).
    await migrate(db, config);
    console.error("embedded database template made");
  } finally {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
