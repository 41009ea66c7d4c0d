import { randomBytes } from "node:crypto";
import { Client } from "pg";

/**
 * Where a test file's database lives: a fresh in-memory PGlite by default, or, with
 * TEST_DATABASE_URL set, a new database of its own on that PostgreSQL server, dropped afterwards.
 */
export interface TestDatabase {
  url: string | undefined;
  drop(): Promise<void>;
}

export async function createTestDatabase(serverUrl = process.env.TEST_DATABASE_URL): Promise<TestDatabase> {
  if (!serverUrl) return { url: undefined, drop: async () => undefined };
  const name = `wf_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The settings of a service under test that reaches PostgreSQL through a transaction pooler
 * (TEST_DIRECT_DATABASE_URL names the server behind it), else nothing to set: it listens for
 * committed events on the same database on the direct server (LISTEN holds a session, which
 * transaction pooling cannot give), and sends no named prepared statements (the pooler may run a
 * statement's next use on another server session).
 */
export function poolerSettingsFor(databaseUrl: string | undefined): Record<string, string> {
  const direct = process.env.TEST_DIRECT_DATABASE_URL;
  if (!databaseUrl || !direct) return {};
  const listen = new URL(direct);
  listen.pathname = new URL(databaseUrl).pathname;
  return { DATABASE_LISTEN_URL: listen.toString(), DATABASE_PREPARED_STATEMENTS: "off" };
}
