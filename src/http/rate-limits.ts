import { NextFunction, Request, RequestHandler, Response } from "express";
import { Pool } from "pg";
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import type { RequestContext } from "../graphql/context";
import { Config } from "../config";
import { ClientError } from "../errors/client-error";

/** One budget a request spends from, and what it has left. */
interface Spent {
  policy: string;
  points: number;
  windowSeconds: number;
  res: RateLimiterRes;
  allowed: boolean;
}

/**
 * The rate limits of every service process, counted in a store they share: the PostgreSQL
 * primary (table rate_limits.counters) on a server, kept in memory meanwhile when it cannot be
 * reached; in memory with the embedded database, which one process holds alone.
 *
 * - "token": per token, `RATE_LIMIT_POINTS` per `RATE_LIMIT_WINDOW_SECONDS`: a staff member's
 *   token spends the staff member's own budget, an organization-wide token its API key's.
 * - "anonymous": calls without a token (the token exchange, creating an organization), per
 *   client address and per API key prefix against guessing, `RATE_LIMIT_ANONYMOUS_POINTS` each.
 */
export class RateLimits {
  private constructor(
    private readonly config: Pick<Config, "rateLimitPoints" | "rateLimitWindowSeconds" | "rateLimitAnonymousPoints">,
    private readonly tokens: RateLimiterAbstract,
    private readonly anonymous: RateLimiterAbstract,
    private readonly pool: Pool | undefined,
  ) {}

  static open(config: Config): RateLimits {
    const duration = config.rateLimitWindowSeconds;
    if (!config.databaseUrl) {
      const memory = (keyPrefix: string, points: number) => new RateLimiterMemory({ keyPrefix, points, duration });
      return new RateLimits(config, memory("token", config.rateLimitPoints), memory("anonymous", config.rateLimitAnonymousPoints), undefined);
    }
    const pool = new Pool({ connectionString: config.databaseUrl, max: 4, connectionTimeoutMillis: 2000 });
    // An idle connection the server closes (a restart, an outage) is dropped by the pool and the next
    // call connects again, the memory limiter standing in meanwhile; unheard, the error would end the process.
    pool.on("error", () => undefined);
    // Unnamed statements only: a pooler in transaction mode (PgBouncer) cannot keep named ones.
    const storeClient = { query: (q: { text: string; values?: unknown[] }) => pool.query({ text: q.text, values: q.values }) };
    const postgres = (keyPrefix: string, points: number) =>
      new RateLimiterPostgres({
        storeClient,
        storeType: "pool",
        schemaName: "rate_limits",
        tableName: "counters",
        tableCreated: true,
        keyPrefix,
        points,
        duration,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
      });
    return new RateLimits(config, postgres("token", config.rateLimitPoints), postgres("anonymous", config.rateLimitAnonymousPoints), pool);
  }

  get enabled(): boolean {
    return this.config.rateLimitPoints > 0;
  }

  /** Spends `points` of a token's budget. */
  spendToken(key: string, points: number): Promise<Spent> {
    return spend(this.tokens, "token", this.config.rateLimitPoints, this.config.rateLimitWindowSeconds, key, points);
  }

  /** Spends one call of each anonymous budget named (client address, key prefix). */
  async spendAnonymous(keys: string[]): Promise<Spent[]> {
    return Promise.all(keys.map((key) => spend(this.anonymous, "anonymous", this.config.rateLimitAnonymousPoints, this.config.rateLimitWindowSeconds, key, 1)));
  }

  async close(): Promise<void> {
    await this.pool?.end();
  }
}

async function spend(limiter: RateLimiterAbstract, policy: string, points: number, windowSeconds: number, key: string, cost: number): Promise<Spent> {
  try {
    return { policy, points, windowSeconds, res: await limiter.consume(key, cost), allowed: true };
  } catch (rejection) {
    // Over the limit the library rejects with the counter; any other error is the store's and the insurance's.
    if (rejection instanceof RateLimiterRes) return { policy, points, windowSeconds, res: rejection, allowed: false };
    throw rejection;
  }
}

/** Headers of draft-ietf-httpapi-ratelimit-headers: the policy (quota q per window w) and what is left (r) until the window resets (t). */
function setHeaders(res: Response, spent: Spent): void {
  const left = Math.max(0, Math.ceil(spent.res.msBeforeNext / 1000));
  res.setHeader("RateLimit-Policy", `"${spent.policy}";q=${spent.points};w=${spent.windowSeconds}`);
  res.setHeader("RateLimit", `"${spent.policy}";r=${spent.res.remainingPoints};t=${left}`);
  if (!spent.allowed) res.setHeader("Retry-After", String(Math.max(1, left)));
}

/** The API key prefix a token exchange names (REST body or GraphQL variables), which guessing would share. */
function presentedKeyPrefix(req: Request): string | undefined {
  const body = (req.body ?? {}) as { apiKey?: unknown; variables?: { input?: { apiKey?: unknown } } };
  const key = body.apiKey ?? body.variables?.input?.apiKey;
  return typeof key === "string" && key.length >= 12 ? key.slice(0, 12) : undefined;
}

/**
 * Spends a request's cost before it does any database work of its own, and answers 429 with
 * Retry-After when a budget is spent; every answer carries the RateLimit headers of the budget
 * with the least left. `costOf` is the request's cost in points (a GraphQL operation's computed
 * cost, a REST call 1).
 */
export function rateLimiting(
  limits: RateLimits,
  costOf: (req: Request) => number,
  sendError: (res: Response, req: Request, error: Pick<ClientError, "code" | "message" | "status" | "details">) => void,
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!limits.enabled) return next();
    try {
      const actor = (res.locals.context as RequestContext | undefined)?.actor;
      let spent: Spent[];
      if (actor) {
        spent = [await limits.spendToken(actor.staffId ? `staff:${actor.staffId}` : `key:${actor.apiKeyId}`, costOf(req))];
      } else {
        const prefix = presentedKeyPrefix(req);
        spent = await limits.spendAnonymous([`address:${req.socket.remoteAddress ?? "unknown"}`, ...(prefix ? [`prefix:${prefix}`] : [])]);
      }
      const refused = spent.find((s) => !s.allowed);
      const shown = refused ?? spent.reduce((a, b) => (b.res.remainingPoints < a.res.remainingPoints ? b : a));
      setHeaders(res, shown);
      if (!refused) return next();
      const message = `Rate limit reached: ${refused.points} points per ${refused.windowSeconds} s; retry after ${res.getHeader("Retry-After")} s`;
      if (req.baseUrl === "/graphql") {
        res.status(429).json({ errors: [{ message, extensions: { code: "RATE_LIMITED", details: [], requestId: req.id } }] });
      } else {
        sendError(res, req, { code: "RATE_LIMITED", message, status: 429, details: [] });
      }
    } catch (error) {
      next(error);
    }
  };
}
