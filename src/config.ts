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
    scheduledJobs: env.SCHEDULED_JOBS ? env.SCHEDULED_JOBS !== "off" : env.NODE_ENV !== "test",
  };
}
