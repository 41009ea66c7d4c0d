/** Server settings, read once from the environment (see README). */
export interface Config {
  port: number;
  /** Where clients reach the service (scheme, host, port): the base of the links it hands out, such as calendar feeds. */
  publicUrl: string;
  databaseUrl: string | undefined;
  /** A direct connection to PostgreSQL for LISTEN (events committed by other processes), not through a pooler in transaction mode; DATABASE_URL when unset. */
  databaseListenUrl: string | undefined;
  /**
   * Whether statements go to PostgreSQL as named prepared statements (DATABASE_PREPARED_STATEMENTS,
   * default on): off behind a pooler in transaction mode that cannot follow them. See database/prepared-statements.ts.
   */
  preparedStatements: boolean;
  /** Streaming replicas of the primary that reads which may lag go to (DATABASE_REPLICA_URLS, comma-separated). */
  replicaUrls: string[];
  /** A replica further behind the primary than this is skipped until it catches up. */
  replicaMaxLagMs: number;
  dataDir: string;
  platformApiKey: string | undefined;
  jwtSecret: string | undefined;
  logLevel: string;
  /** Milliseconds a database statement may run before it is cancelled (PostgreSQL server only). */
  statementTimeoutMs: number;
  /**
   * The most shifts one answer holds in memory (a list, or the export through GraphQL): a year of a
   * large organization would fill a service process's heap, so such a range is refused instead.
   */
  maxListedShifts: number;
  /** Lifetime of exchanged access tokens, in seconds. */
  tokenTtlSeconds: number;
  /** Milliseconds a client has to send a request's headers, the whole request, and between requests on a kept-alive connection. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Requests one process works on at once; later ones wait in line, in order (0: no limit). See http/request-admission.ts. */
  concurrentRequests: number;
  /** How long a request may wait in that line before it is answered 503 with Retry-After (0: no limit). */
  maxWaitInLineMs: number;
  /** Points one token or API key may spend per window (a call spends its operation's cost); 0 turns rate limiting off. */
  rateLimitPoints: number;
  rateLimitWindowSeconds: number;
  /** Points all the tokens of one organization (its API keys' and staff members') may spend together per window; 0: no such ceiling. */
  rateLimitOrganizationPoints: number;
  /** Calls without a token (the token exchange) per window, per client address and per API key prefix. */
  rateLimitAnonymousPoints: number;
  /**
   * Which proxies in front of the service are trusted to name the client (X-Forwarded-For), as
   * Express's `trust proxy` reads it: false (none: the peer is the client), true, a hop count, or
   * addresses and subnets ("loopback", "10.0.0.0/8, fd00::/8").
   */
  trustProxy: boolean | number | string;
  /** The most WebSocket connections one caller (API key and staff member) and one client address hold at once, per process. */
  websocketsPerCaller: number;
  websocketsPerAddress: number;
  /** Where the rate limits count when set (Redis), instead of the PostgreSQL primary. */
  redisUrl: string | undefined;
  /** Whether the service runs its scheduled jobs (accruals); off in tests, which run them by hand. */
  scheduledJobs: boolean;
  /** Seconds a process's claim on a schedule generation holds without renewal: one that died loses it after this. */
  generationLeaseSeconds: number;
  webhooks: WebhookSettings;
}

/** How webhooks are delivered; the timings are settings so that tests need not wait for minutes. */
export interface WebhookSettings {
  /** Lets endpoints use private, loopback and link-local addresses and plain http (development and tests). */
  allowPrivateTargets: boolean;
  /** Waits before each retry after a failed attempt (jitter of ±20% is added). */
  retryDelaysMs: number[];
  /** How long a claimed attempt is reserved for its process: after it, another process makes the attempt. */
  leaseMs: number;
  /** Longest wait for a receiver's answer. */
  timeoutMs: number;
  /** How often due deliveries are looked for when no new event wakes the worker. */
  pollMs: number;
  /** Attempts in flight at once in one process, and per endpoint. */
  concurrency: number;
  perEndpointConcurrency: number;
  /** An endpoint failing for this long is disabled. */
  disableAfterMs: number;
}

const HOUR = 3_600_000;
const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 14 * HOUR, 20 * HOUR, 24 * HOUR];

function webhookSettings(env: NodeJS.ProcessEnv): WebhookSettings {
  return {
    allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === "true",
    retryDelaysMs: env.WEBHOOK_RETRY_DELAYS_MS ? env.WEBHOOK_RETRY_DELAYS_MS.split(",").map(Number) : RETRY_DELAYS_MS,
    leaseMs: Number(env.WEBHOOK_LEASE_MS ?? 60_000),
    timeoutMs: Number(env.WEBHOOK_TIMEOUT_MS ?? 15_000),
    pollMs: Number(env.WEBHOOK_POLL_MS ?? 1000),
    concurrency: Number(env.WEBHOOK_CONCURRENCY ?? 128),
    perEndpointConcurrency: Number(env.WEBHOOK_ENDPOINT_CONCURRENCY ?? 32),
    disableAfterMs: Number(env.WEBHOOK_DISABLE_AFTER_MS ?? 5 * 24 * HOUR),
  };
}

function trustProxySetting(value: string | undefined): boolean | number | string {
  const given = (value ?? "").trim();
  if (given === "" || given === "false") return false;
  if (given === "true") return true;
  if (/^\d+$/.test(given)) return Number(given);
  return given;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 4000),
    publicUrl: (env.PUBLIC_URL || `http://localhost:${env.PORT ?? 4000}`).replace(/\/+$/, ""),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseListenUrl: env.DATABASE_LISTEN_URL || undefined,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS !== "off",
    replicaUrls: (env.DATABASE_REPLICA_URLS ?? "")
      .split(",")
      .map((u) => u.trim())
      .filter(Boolean),
    replicaMaxLagMs: Number(env.REPLICA_MAX_LAG_MS ?? 5000),
    dataDir: env.DATA_DIR || "./.data",
    platformApiKey: env.PLATFORM_API_KEY || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === "test" ? "silent" : "info"),
    statementTimeoutMs: Number(env.STATEMENT_TIMEOUT_MS ?? 15000),
    maxListedShifts: Number(env.MAX_LISTED_SHIFTS ?? 20_000),
    tokenTtlSeconds: Number(env.TOKEN_TTL_SECONDS ?? 3600),
    headersTimeoutMs: Number(env.HEADERS_TIMEOUT_MS ?? 10_000),
    requestTimeoutMs: Number(env.REQUEST_TIMEOUT_MS ?? 30_000),
    keepAliveTimeoutMs: Number(env.KEEP_ALIVE_TIMEOUT_MS ?? 5_000),
    concurrentRequests: Number(env.CONCURRENT_REQUESTS ?? 2),
    maxWaitInLineMs: Number(env.MAX_WAIT_IN_LINE_MS ?? 10_000),
    rateLimitPoints: Number(env.RATE_LIMIT_POINTS ?? 250_000),
    rateLimitWindowSeconds: Number(env.RATE_LIMIT_WINDOW_SECONDS ?? 60),
    rateLimitOrganizationPoints: Number(env.RATE_LIMIT_ORGANIZATION_POINTS ?? 5_000_000),
    rateLimitAnonymousPoints: Number(env.RATE_LIMIT_ANONYMOUS_POINTS ?? 600),
    trustProxy: trustProxySetting(env.TRUST_PROXY),
    websocketsPerCaller: Number(env.WEBSOCKETS_PER_CALLER ?? 20),
    websocketsPerAddress: Number(env.WEBSOCKETS_PER_ADDRESS ?? 200),
    redisUrl: env.REDIS_URL || undefined,
    scheduledJobs: env.SCHEDULED_JOBS ? env.SCHEDULED_JOBS !== "off" : env.NODE_ENV !== "test",
    generationLeaseSeconds: Math.max(1, Number(env.GENERATION_LEASE_SECONDS ?? 15)),
    webhooks: webhookSettings(env),
  };
}
