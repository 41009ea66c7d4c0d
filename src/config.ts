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
  /** Points one token or API key may spend per window (a REST call costs 1, a GraphQL operation its cost); 0 turns rate limiting off. */
  rateLimitPoints: number;
  rateLimitWindowSeconds: number;
  /** Calls without a token (the token exchange) per window, per client address and per API key prefix. */
  rateLimitAnonymousPoints: number;
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
    rateLimitPoints: Number(env.RATE_LIMIT_POINTS ?? 250000),
    rateLimitWindowSeconds: Number(env.RATE_LIMIT_WINDOW_SECONDS ?? 60),
    rateLimitAnonymousPoints: Number(env.RATE_LIMIT_ANONYMOUS_POINTS ?? 600),
    scheduledJobs: env.SCHEDULED_JOBS ? env.SCHEDULED_JOBS !== "off" : env.NODE_ENV !== "test",
  };
}
