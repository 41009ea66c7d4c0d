/** Server settings, read once from the environment (see README). */
export interface Config {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  platformApiKey: string | undefined;
  jwtSecret: string | undefined;
  logLevel: string;
  /** Milliseconds a database statement may run before it is cancelled (PostgreSQL server only). */
  statementTimeoutMs: number;
  /** Lifetime of exchanged access tokens, in seconds. */
  tokenTtlSeconds: number;
  /** Milliseconds a client has to send a request's headers, the whole request, and between requests on a kept-alive connection. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Whether the service runs its scheduled jobs (accruals); off in tests, which run them by hand. */
  scheduledJobs: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 4000),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR || "./.data",
    platformApiKey: env.PLATFORM_API_KEY || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === "test" ? "silent" : "info"),
    statementTimeoutMs: Number(env.STATEMENT_TIMEOUT_MS ?? 15000),
    tokenTtlSeconds: Number(env.TOKEN_TTL_SECONDS ?? 3600),
    headersTimeoutMs: Number(env.HEADERS_TIMEOUT_MS ?? 10_000),
    requestTimeoutMs: Number(env.REQUEST_TIMEOUT_MS ?? 30_000),
    keepAliveTimeoutMs: Number(env.KEEP_ALIVE_TIMEOUT_MS ?? 5_000),
    scheduledJobs: env.SCHEDULED_JOBS ? env.SCHEDULED_JOBS !== "off" : env.NODE_ENV !== "test",
  };
}
