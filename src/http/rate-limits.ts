import express, { NextFunction, Request, RequestHandler, Response, Router } from "express";
import Redis from "ioredis";
import { Pool } from "pg";
import { RateLimiterMemory } from "rate-limiter-flexible";
import type { RequestContext } from "../graphql/context";
import { MAX_PAGE_SIZE } from "../common/pagination";
import { Config } from "../config";
import { ClientError } from "../errors/client-error";
import { MAX_COST } from "../graphql/limits";
import type { RawRestRoute } from "../rest/raw-routes";
import { addressGroup } from "./client-address";
import type { CompiledRoute } from "../rest/shim";
import { BudgetAnswer, CounterStore, LeasedBudget, postgresCounters, redisCounters, spendInMemory } from "./rate-limit-leases";

/** One budget a request spends from, and what it has left. */
interface Spent extends BudgetAnswer {
  policy: string;
  points: number;
  windowSeconds: number;
}

type Budget = (key: string, cost: number) => Promise<BudgetAnswer>;

/**
 * The rate limits of every service process, counted in a store they share: Redis when REDIS_URL
 * is set, else the PostgreSQL primary (table rate_limits.counters), kept in memory meanwhile when
 * the store cannot be reached; in memory with the embedded database (and no Redis), which one
 * process holds alone. With a shared store each process spends from leases of the budget it takes
 * in batches (see LeasedBudget): one round trip per lease, not per call, and never more admitted
 * than the budget, while a client may be refused up to (processes − 1) × 5 % of its budget early.
 *
 * - "token": per token, `RATE_LIMIT_POINTS` per `RATE_LIMIT_WINDOW_SECONDS`: a staff member's
 *   token spends the staff member's own budget, an organization-wide token its API key's.
 * - "anonymous": calls without a token (the token exchange, creating an organization), per
 *   client address and per API key prefix against guessing, `RATE_LIMIT_ANONYMOUS_POINTS` each.
 */
export class RateLimits {
  private constructor(
    private readonly config: Pick<Config, "rateLimitPoints" | "rateLimitWindowSeconds" | "rateLimitAnonymousPoints">,
    private readonly tokens: Budget,
    private readonly anonymous: Budget,
    private readonly store: { close(): Promise<unknown> } | undefined,
  ) {}

  static open(config: Config): RateLimits {
    const duration = config.rateLimitWindowSeconds;
    const memory = (keyPrefix: string, points: number) => new RateLimiterMemory({ keyPrefix, points, duration });
    const leased = (counters: CounterStore, keyPrefix: string, points: number): Budget => {
      const budget = new LeasedBudget(counters, keyPrefix, points, duration, memory(keyPrefix, points));
      return (key, cost) => budget.spend(key, cost);
    };
    const open = (counters: CounterStore, close: () => Promise<unknown>) =>
      new RateLimits(config, leased(counters, "token", config.rateLimitPoints), leased(counters, "anonymous", config.rateLimitAnonymousPoints), { close });
    if (config.redisUrl) {
      // Commands wait for a connection no longer than this; then the memory limiter answers for the store.
      const client = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: false });
      // A lost connection is retried by the client; unheard, its error would end the process.
      client.on("error", () => undefined);
      return open(redisCounters(client), () => client.quit().catch(() => client.disconnect()));
    }
    if (!config.databaseUrl) {
      const inMemory = (keyPrefix: string, points: number): Budget => {
        const limiter = memory(keyPrefix, points);
        return (key, cost) => spendInMemory(limiter, key, cost);
      };
      return new RateLimits(config, inMemory("token", config.rateLimitPoints), inMemory("anonymous", config.rateLimitAnonymousPoints), undefined);
    }
    const pool = new Pool({ connectionString: config.databaseUrl, max: 4, connectionTimeoutMillis: 2000 });
    // An idle connection the server closes (a restart, an outage) is dropped by the pool and the next
    // call connects again, the memory limiter standing in meanwhile; unheard, the error would end the process.
    pool.on("error", () => undefined);
    return open(postgresCounters(pool), () => pool.end());
  }

  get enabled(): boolean {
    return this.config.rateLimitPoints > 0;
  }

  /** Spends `points` of a token's budget. */
  async spendToken(key: string, points: number): Promise<Spent> {
    return { policy: "token", points: this.config.rateLimitPoints, windowSeconds: this.config.rateLimitWindowSeconds, ...(await this.tokens(key, points)) };
  }

  /** Spends one call of each anonymous budget named (client address, key prefix). */
  async spendAnonymous(keys: string[]): Promise<Spent[]> {
    const answers = await Promise.all(keys.map((key) => this.anonymous(key, 1)));
    return answers.map((answer) => ({ policy: "anonymous", points: this.config.rateLimitAnonymousPoints, windowSeconds: this.config.rateLimitWindowSeconds, ...answer }));
  }

  async close(): Promise<void> {
    await this.store?.close();
  }
}

/** Headers of draft-ietf-httpapi-ratelimit-headers: the policy (quota q per window w) and what is left (r) until the window resets (t). */
function setHeaders(res: Response, spent: Spent): void {
  const left = Math.max(0, Math.ceil(spent.msBeforeNext / 1000));
  res.setHeader("RateLimit-Policy", `"${spent.policy}";q=${spent.points};w=${spent.windowSeconds}`);
  res.setHeader("RateLimit", `"${spent.policy}";r=${spent.remainingPoints};t=${left}`);
  if (!spent.allowed) res.setHeader("Retry-After", String(Math.max(1, left)));
}

/** The API key prefix a token exchange names (REST body or GraphQL variables), which guessing would share. */
function presentedKeyPrefix(req: Request): string | undefined {
  const body = (req.body ?? {}) as { apiKey?: unknown; variables?: { input?: { apiKey?: unknown } } };
  const key = body.apiKey ?? body.variables?.input?.apiKey;
  return typeof key === "string" && key.length >= 12 ? key.slice(0, 12) : undefined;
}

/** The most one call spends: what the costliest GraphQL operation the limits admit may cost. */
export const MAX_CALL_COST = MAX_COST;

/**
 * The points a REST call spends, put in `res.locals.cost` before the rate limits, counted in the
 * records its operation may answer: a plain call (one record, one change) 1, a list its page size
 * (`limit`, else the largest page a REST list answers), a raw route its own rule (the export's: by
 * the days of its range); at most MAX_CALL_COST. A page of a thousand records thus spends what a
 * thousand single reads do.
 * Matched by express itself, in the order the routes are mounted, so each call is priced as the route that answers it.
 */
export function restCosts(compiled: CompiledRoute[], raw: RawRestRoute[]): Router {
  const router = express.Router();
  const price = (points: number) => Math.min(MAX_CALL_COST, Math.max(1, Math.ceil(points)));
  for (const route of raw) {
    router[route.method.toLowerCase() as "get"](route.path.replace(/\{(\w+)\}/g, ":$1"), (req: Request, res: Response, next: NextFunction) => {
      res.locals.cost = price(route.cost ? route.cost(req.query as Record<string, unknown>) : 1);
      next("router");
    });
  }
  for (const c of compiled) {
    router[c.route.method.toLowerCase() as "get"](c.expressPath, (req: Request, res: Response, next: NextFunction) => {
      const limit = typeof req.query.limit === "string" && /^\d{1,9}$/.test(req.query.limit) ? Number(req.query.limit) : MAX_PAGE_SIZE;
      res.locals.cost = price(c.route.list ? limit : 1);
      next("router");
    });
  }
  return router;
}

/** Whether an answer refuses its caller's credential: a 401, or a GraphQL answer with UNAUTHENTICATED. */
function refusesCredential(res: Response, body: unknown): boolean {
  if (res.statusCode === 401) return true;
  if (typeof body !== "string" || !body.includes("UNAUTHENTICATED")) return false;
  try {
    return ((JSON.parse(body) as { errors?: { extensions?: { code?: unknown } }[] }).errors ?? []).some((e) => e.extensions?.code === "UNAUTHENTICATED");
  } catch {
    return false;
  }
}

/**
 * The budget of an API key prefix, which strangers may know (Managers see it), is spent only by
 * exchanges that fail: a guess past the budget answers 429 instead of 401, while the key itself
 * (which never fails) is never refused for its prefix.
 */
function spendOnRefusal(limits: RateLimits, key: string, req: Request, res: Response, sendError: SendError): void {
  const send = res.send.bind(res);
  let seen = false;
  res.send = (body?: unknown) => {
    if (seen || !refusesCredential(res, body)) return send(body);
    seen = true;
    limits.spendAnonymous([key]).then(
      ([spent]) => {
        if (spent.allowed) return send(body);
        res.send = send;
        setHeaders(res, spent);
        refuseOverLimit(req, res, spent, sendError);
      },
      () => send(body),
    );
    return res;
  };
}

type SendError = (res: Response, req: Request, error: Pick<ClientError, "code" | "message" | "status" | "details">) => void;

function refuseOverLimit(req: Request, res: Response, refused: Spent, sendError: SendError): void {
  const message = `Rate limit reached: ${refused.points} points per ${refused.windowSeconds} s; retry after ${res.getHeader("Retry-After")} s`;
  if (req.baseUrl === "/graphql" || req.originalUrl.startsWith("/graphql")) {
    res.status(429).json({ errors: [{ message, extensions: { code: "RATE_LIMITED", details: [], requestId: req.id } }] });
  } else {
    sendError(res, req, { code: "RATE_LIMITED", message, status: 429, details: [] });
  }
}

/**
 * Spends a request's cost before it does any database work of its own, and answers 429 with
 * Retry-After when a budget is spent; every answer carries the RateLimit headers of the budget
 * with the least left. `costOf` is the request's cost in points (a GraphQL operation's computed
 * cost, a REST call its operation's: see restCosts).
 */
export function rateLimiting(
  limits: RateLimits,
  costOf: (req: Request, res: Response) => number,
  sendError: SendError,
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!limits.enabled) return next();
    try {
      const actor = (res.locals.context as RequestContext | undefined)?.actor;
      let spent: Spent[];
      if (actor) {
        spent = [await limits.spendToken(actor.staffId ? `staff:${actor.staffId}` : `key:${actor.apiKeyId}`, costOf(req, res))];
      } else {
        spent = await limits.spendAnonymous([`address:${addressGroup(req.ip ?? "unknown")}`]);
        const prefix = presentedKeyPrefix(req);
        if (prefix) spendOnRefusal(limits, `prefix:${prefix}`, req, res, sendError);
      }
      const refused = spent.find((s) => !s.allowed);
      const shown = refused ?? spent.reduce((a, b) => (b.remainingPoints < a.remainingPoints ? b : a));
      setHeaders(res, shown);
      if (!refused) return next();
      refuseOverLimit(req, res, refused, sendError);
    } catch (error) {
      next(error);
    }
  };
}
