import "reflect-metadata";
import path from "node:path";
import { DataSource, DataSourceOptions } from "typeorm";
import { loadConfig, Config } from "./src/config";
import { PGliteDatabase, pgliteDriver } from "./src/database/pglite-pool";
import { IDLE_CONNECTION_MS } from "./src/database/idle-connections";
import { PreparingClient } from "./src/database/prepared-statements";
import { CountingClient } from "./src/database/statement-count";

/**
 * The TypeORM data source: PostgreSQL through `pg` when DATABASE_URL is set, else the embedded
 * PGlite in DATA_DIR. Schema changes come only from the migrations; nothing is synchronized.
 */
export function dataSourceOptions(config: Pick<Config, "databaseUrl" | "dataDir" | "preparedStatements">): DataSourceOptions {
  const common = {
    type: "postgres" as const,
    entities: [path.join(__dirname, "src/modules/**/*.entity.js"), path.join(__dirname, "src/workflows/**/*.entity.js")],
    migrations: [path.join(__dirname, "migrations/*.js")],
    migrationsTableName: "schema_migrations",
    synchronize: false,
    migrationsRun: false,
    installExtensions: false,
    logging: false,
  };
  if (config.databaseUrl) {
    return {
      ...common,
      url: config.databaseUrl,
      poolSize: 20,
      connectTimeoutMS: 5000,
      extra: { idleTimeoutMillis: IDLE_CONNECTION_MS, Client: config.preparedStatements ? PreparingClient : CountingClient },
    };
  }
  const database = PGliteDatabase.for(config.dataDir, path.join(__dirname, "migrations"));
  return { ...common, driver: pgliteDriver(database) };
}

export default new DataSource(dataSourceOptions(loadConfig()));
