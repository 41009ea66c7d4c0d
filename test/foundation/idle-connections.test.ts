import { DataSource } from "typeorm";
import type { Pool } from "pg";
import type { PostgresDriver } from "typeorm/driver/postgres/PostgresDriver";
import { dataSourceOptions } from "../../ormconfig";
import { IDLE_CONNECTION_MS } from "../../src/database/idle-connections";

const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

describe("the pool of connections to a PostgreSQL server", () => {
  onPostgres("keeps a connection between bursts of requests, and closes it after IDLE_CONNECTION_MS idle", async () => {
    const db = new DataSource(dataSourceOptions({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: "", preparedStatements: true }));
    await db.initialize();
    const pool = (db.driver as PostgresDriver).master as Pool;
    // Only the pool's timers are faked: its sockets still answer.
    jest.useFakeTimers({ doNotFake: ["nextTick", "setImmediate", "queueMicrotask"] });
    try {
      // Two reads at once take two connections.
      await Promise.all([db.query("SELECT pg_sleep(0.05)"), db.query("SELECT pg_sleep(0.05)")]);
      expect(pool.totalCount).toBe(2);
      // A minute without a request: pg's own default (10 s) would have closed both.
      jest.advanceTimersByTime(60_000);
      expect(pool.totalCount).toBe(2);
      jest.advanceTimersByTime(IDLE_CONNECTION_MS);
      await new Promise((resolve) => setImmediate(resolve));
      expect(pool.totalCount).toBe(0);
    } finally {
      jest.useRealTimers();
      await db.destroy();
    }
  });
});
