import type { Logger } from "pino";
import request from "supertest";
import type { MigrationInterface } from "typeorm";
import { FixedClock } from "../../src/common/clock";
import { loadConfig, Config } from "../../src/config";
import { Runtime, startRuntime } from "../../src/app/runtime";
import { checkAnswer } from "./contract";
import { createTestDatabase, poolerSettingsFor, TestDatabase } from "./test-database";

export const PLATFORM_KEY = "wfp_test_platform_key";
export const TEST_NOW = "2026-03-02T12:00:00.000Z";

export interface TestOrganization {
  id: string;
  apiKey: string;
  /** An organization-wide token (every permission). */
  token: string;
}

/** A running service for one test file, on its own database, with a fixed clock. */
export class TestService {
  private constructor(
    readonly runtime: Runtime,
    readonly clock: FixedClock,
    private readonly database: TestDatabase,
  ) {}

  /**
   * `serverUrl` names the PostgreSQL server (or pooler) of the file's database instead of
   * TEST_DATABASE_URL; `replicaServerUrls` streaming replicas of that server, whose copies of the
   * file's database the service reads from (DATABASE_REPLICA_URLS).
   */
  static async start(
    options: { now?: string; env?: Record<string, string>; logger?: Logger; serverUrl?: string; replicaServerUrls?: string[] } = {},
  ): Promise<TestService> {
    const database = await createTestDatabase(options.serverUrl);
    const replicas = (options.replicaServerUrls ?? []).map((server) => {
      const url = new URL(server);
      url.pathname = new URL(database.url!).pathname;
      return url.toString();
    });
    const clock = new FixedClock(new Date(options.now ?? TEST_NOW));
    const config: Config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: "memory://",
      PLATFORM_API_KEY: PLATFORM_KEY,
      JWT_SECRET: "test-jwt-secret-that-is-long-enough-for-hs256",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
      ...(database.url ? { DATABASE_URL: database.url } : {}),
      // The matrices send thousands of costly operations in a minute; the rate-limit tests set their own budget.
      RATE_LIMIT_POINTS: "0",
      // A busy machine may keep a burst of calls in line longer than the default; the line's own tests set their limit.
      MAX_WAIT_IN_LINE_MS: "0",
      ...(replicas.length ? { DATABASE_REPLICA_URLS: replicas.join(",") } : {}),
      ...poolerSettingsFor(database.url),
      ...options.env,
    });
    const runtime = await startRuntime(config, { clock, logger: options.logger });
    return new TestService(runtime, clock, database);
  }

  /** The PostgreSQL server database of this file (undefined on PGlite). */
  get databaseUrl(): string | undefined {
    return this.database.url;
  }

  /** Supertest on the app; every answer is checked against the OpenAPI document (test/support/contract.ts). */
  get http(): ReturnType<typeof request> {
    const agent = request(this.runtime.app);
    const openapi = this.runtime.openapi();
    return new Proxy(agent, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== "function" || !["get", "post", "put", "patch", "delete", "head", "options"].includes(String(property))) return value;
        return (url: string) => {
          const test = value.call(target, url) as request.Test;
          return test.expect((res) => checkAnswer(openapi, test.method, url, res));
        };
      },
    });
  }

  async stop(): Promise<void> {
    await this.runtime.close();
    await this.database.drop();
  }

  /** Takes a migration back and applies it again, as it meets data written before it existed. */
  async rerunMigration(migration: MigrationInterface): Promise<void> {
    const runner = this.runtime.db.createQueryRunner();
    try {
      await migration.down(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
  }

  /** Creates an organization through REST and exchanges its API key for a token. */
  async organization(name = "Test Org", timezone = "America/New_York"): Promise<TestOrganization> {
    const created = await this.http.post("/api/organizations").set("Authorization", `Bearer ${PLATFORM_KEY}`).send({ name, timezone });
    if (created.status !== 201) throw new Error(`organization: ${created.status} ${JSON.stringify(created.body)}`);
    const apiKey = created.body.apiKey as string;
    return { id: created.body.organization.id, apiKey, token: await this.token(apiKey) };
  }

  /** A token of the key's organization, acting as `staffId` when given. */
  async token(apiKey: string, staffId?: string): Promise<string> {
    const res = await this.http.post("/api/auth/token-exchange").send(staffId ? { apiKey, staffId } : { apiKey });
    if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.accessToken;
  }

  /** REST calls with a bearer token. */
  as(token: string) {
    const auth = (r: request.Test) => r.set("Authorization", `Bearer ${token}`);
    return {
      get: (path: string) => auth(this.http.get(path)),
      post: (path: string, body?: object) => auth(this.http.post(path)).send(body ?? {}),
      put: (path: string, body?: object) => auth(this.http.put(path)).send(body ?? {}),
      patch: (path: string, body?: object) => auth(this.http.patch(path)).send(body ?? {}),
      delete: (path: string) => auth(this.http.delete(path)),
    };
  }

  /** A GraphQL call; answers the whole response body ({data, errors}). */
  async gql(token: string | null, query: string, variables: Record<string, unknown> = {}) {
    const req = this.http.post("/graphql").set("Content-Type", "application/json");
    if (token) req.set("Authorization", `Bearer ${token}`);
    const res = await req.send({ query, variables });
    return res.body as {
      data?: Record<string, any>;
      errors?: { message: string; path?: (string | number)[]; extensions: { code: string; details?: unknown[] } }[];
    };
  }

  /** A staff member with a token of their own, holding the named system access role. */
  async staffWithToken(org: TestOrganization, accessRole: "Admin" | "Manager" | "Worker", fields: Record<string, unknown> = {}) {
    const api = this.as(org.token);
    const roles = await api.get(`/api/organizations/${org.id}/access-roles`);
    const role = (roles.body as { id: string; name: string }[]).find((r) => r.name === accessRole)!;
    const created = await api.post(`/api/organizations/${org.id}/staff`, {
      name: `${accessRole} ${Math.random().toString(36).slice(2, 7)}`,
      accessRoleId: role.id,
      ...fields,
    });
    if (created.status !== 201) throw new Error(`staff: ${created.status} ${JSON.stringify(created.body)}`);
    return { staff: created.body as { id: string; name: string }, token: await this.token(org.apiKey, created.body.id) };
  }
}
