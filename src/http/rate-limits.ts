import { NextFunction, Request, RequestHandler, Response } from "express";
import { Pool } from "pg";
import type { Actor } from "../auth/actor";
import type { RequestContext } from "../graphql/context";
import { MAX_PAGE_SIZE } from "../common/pagination";
import { IDLE_CONNECTION_MS } from "../database/idle-connections";
import { CountingClient } from "../database/statement-count";
import { Config } from "../config";
import { refusal, SendError } from "../errors/client-error";
import { MAX_COST } from "../graphql/limits";
import type { RawRestRoute } from "../rest/raw-routes";
import { addressGroup } from "./client-address";
import type { CompiledRoute } from "../rest/shim";
import { BudgetAnswer, CounterStore, LeasedBudget, MemoryBudget, postgresCounters, redisCounters } from "./rate-limit-leases";

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
 * - "organization": every token of one organization (its API keys' and its staff members'),
 *   `RATE_LIMIT_ORGANIZATION_POINTS` per window: a ceiling that more keys or staff tokens do not raise.
 * - "anonymous": calls without a token (the token exchange, creating an organization), per
 *   client address and per API key prefix against guessing, `RATE_LIMIT_ANONYMOUS_POINTS` each.
 */
export class RateLimits {
  private constructor(
    private readonly config: Pick<Config, "rateLimitPoints" | "rateLimitWindowSeconds" | "rateLimitAnonymousPoints" | "rateLimitOrganizationPoints">,
    private readonly tokens: Budget,
    private readonly organizations: Budget,
    private readonly anonymous: Budget,
    private readonly store: { close(): Promise<unknown> } | undefined,
  ) {}

  static open(config: Config): RateLimits {
    const duration = config.rateLimitWindowSeconds;
    const leased = (counters: CounterStore, keyPrefix: string, points: number): Budget => {
      const budget = new LeasedBudget(counters, keyPrefix, points, duration, new MemoryBudget(points, duration));
      return (key, cost) => budget.spend(key, cost);
    };
    const open = (counters: CounterStore, close: () => Promise<unknown>) =>
      new RateLimits(
        config,
        leased(counters, "token", config.rateLimitPoints),
        leased(counters, "organization", config.rateLimitOrganizationPoints),
        leased(counters, "anonymous", config.rateLimitAnonymousPoints),
        { close },
      );
    if (config.redisUrl) {
      // Commands wait for a connection no longer than this; then the memory limiter answers for the store.
      // Required here: a process without Redis does not load its client.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { default: Redis } = require("ioredis") as typeof import("ioredis");
      const client = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: false });
      // A lost connection is retried by the client; unheard, its error would end the process.
      client.on("error", () => undefined);
      return open(redisCounters(client), () => client.quit().catch(() => client.disconnect()));
    }
    if (!config.databaseUrl) {
      const inMemory = (points: number): Budget => {
        const budget = new MemoryBudget(points, duration);
        return async (key, cost) => budget.spend(key, cost);
      };
      return new RateLimits(
        config,
        inMemory(config.rateLimitPoints),
        inMemory(config.rateLimitOrganizationPoints),
        inMemory(config.rateLimitAnonymousPoints),
        undefined,
      );
    }
    const pool = new Pool({
      connectionString: config.databaseUrl,
      Client: CountingClient,
      max: 4,
      connectionTimeoutMillis: 2000,
      idleTimeoutMillis: IDLE_CONNECTION_MS,
    });
    // An idle connection the server closes (a restart, an outage) is dropped by the pool and the next
    // call connects again, the memory limiter standing in meanwhile; unheard, the error would end the process.
    pool.on("error", () => undefined);
    return open(postgresCounters(pool), () => pool.end());
  }

  get enabled(): boolean {
    return this.config.rateLimitPoints > 0;
  }

  /**
   * Spends `points` of a caller's budgets: its own (`budget`: the staff member's, or the API key's
   * for an organization-wide token) and its organization's, which all its keys and staff tokens share.
   */
  async spendCaller(budget: string, organizationId: string | undefined, points: number): Promise<Spent[]> {
    const windowSeconds = this.config.rateLimitWindowSeconds;
    const own = this.tokens(budget, points);
    const organization =
      organizationId && this.config.rateLimitOrganizationPoints > 0 ? this.organizations(`organization:${organizationId}`, points) : undefined;
    return [
      { policy: "token", points: this.config.rateLimitPoints, windowSeconds, ...(await own) },
      ...(organization ? [{ policy: "organization", points: this.config.rateLimitOrganizationPoints, windowSeconds, ...(await organization) }] : []),
    ];
  }

  /** Spends one call of each anonymous budget named (client address, key prefix). */
  async spendAnonymous(keys: string[]): Promise<Spent[]> {
    const answers = await Promise.all(keys.map((key) => this.anonymous(key, 1)));
    return answers.map((answer) => ({
      policy: "anonymous",
      points: this.config.rateLimitAnonymousPoints,
      windowSeconds: this.config.rateLimitWindowSeconds,
      ...answer,
    }));
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
 * Matched in the order the routes are mounted, so each call is priced as the route that answers it.
 */
export function restCosts(compiled: CompiledRoute[], raw: RawRestRoute[]): RequestHandler {
  const price = (points: number) => Math.min(MAX_CALL_COST, Math.max(1, Math.ceil(points)));
  const costs = new RouteTree<(req: Request) => number>();
  // Raw routes first, as they are mounted first: where two match, the first mounted answers.
  for (const route of raw) costs.add(route.method, route.path, (req) => price(route.cost ? route.cost(req.query as Record<string, unknown>) : 1));
  for (const c of compiled) {
    costs.add(c.route.method, c.route.path, (req) => {
      const limit = typeof req.query.limit === "string" && /^\d{1,9}$/.test(req.query.limit) ? Number(req.query.limit) : MAX_PAGE_SIZE;
      return price(c.route.list ? limit : 1);
    });
  }
  return (req: Request, res: Response, next: NextFunction) => {
    const cost = costs.find(req.method === "HEAD" ? "GET" : req.method, req.path);
    if (cost) res.locals.cost = cost(req);
    next();
  };
}

/**
 * Routes by path segment ("{name}" a parameter), matched as express matches them (literal segments
 * regardless of case, a trailing slash allowed; of two matches the one added first) in one walk
 * down the path, rather than one regular expression per route per request.
 */
class RouteTree<T> {
  private readonly root: RouteNode<T> = { literal: new Map(), ends: new Map() };
  private added = 0;

  add(method: string, path: string, value: T): void {
    let node = this.root;
    for (const segment of path.split("/").filter(Boolean)) {
      const isParam = segment.startsWith("{");
      const next = isParam ? node.param : node.literal.get(segment.toLowerCase());
      if (next) node = next;
      else {
        const created: RouteNode<T> = { literal: new Map(), ends: new Map() };
        if (isParam) node.param = created;
        else node.literal.set(segment.toLowerCase(), created);
        node = created;
      }
    }
    if (!node.ends.has(method)) node.ends.set(method, { order: this.added++, value });
  }

  find(method: string, path: string): T | undefined {
    const segments = path.split("/").filter(Boolean);
    let best: { order: number; value: T } | undefined;
    const walk = (node: RouteNode<T>, i: number): void => {
      if (i === segments.length) {
        const end = node.ends.get(method);
        if (end && (!best || end.order < best.order)) best = end;
        return;
      }
      const literal = node.literal.get(segments[i].toLowerCase());
      if (literal) walk(literal, i + 1);
      if (node.param) walk(node.param, i + 1);
    };
    walk(this.root, 0);
    return best?.value;
  }
}

interface RouteNode<T> {
  literal: Map<string, RouteNode<T>>;
  param?: RouteNode<T>;
  ends: Map<string, { order: number; value: T }>;
}

/** The budget a caller's token spends: its staff member's, or its API key's. */
export function callerBudget(actor: Actor): string {
  return actor.staffId ? `staff:${actor.staffId}` : `key:${actor.apiKeyId}`;
}

/** The budget a request with a bearer token spends. */
function tokenBudget(_req: Request, res: Response): string | undefined {
  const actor = (res.locals.context as RequestContext | undefined)?.actor;
  return actor ? callerBudget(actor) : undefined;
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

function refuseOverLimit(req: Request, res: Response, refused: Spent, sendError: SendError): void {
  const message = `Rate limit reached: ${refused.points} points per ${refused.windowSeconds} s; retry after ${res.getHeader("Retry-After")} s`;
  if (req.baseUrl === "/graphql" || req.originalUrl.startsWith("/graphql")) {
    res.status(429).json({ errors: [{ message, extensions: { code: "RATE_LIMITED", details: [], requestId: req.id } }] });
  } else {
    sendError(res, req, refusal("RATE_LIMITED", message));
  }
}

/**
 * Spends a request's cost before it does any database work of its own, and answers 429 with
 * Retry-After when a budget is spent; every answer carries the RateLimit headers of the budget
 * with the least left. `costOf` is the request's cost in points (a GraphQL operation's computed
 * cost, a REST call its operation's: see restCosts). `budgetOf` names the caller's token budget
 * (by default the bearer token's); a request without one spends the anonymous budgets.
 */
export function rateLimiting(
  limits: RateLimits,
  costOf: (req: Request, res: Response) => number,
  sendError: SendError,
  budgetOf: (req: Request, res: Response) => string | undefined = tokenBudget,
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!limits.enabled) return next();
    try {
      const budget = budgetOf(req, res);
      let spent: Spent[];
      if (budget) {
        const organizationId = (res.locals.context as RequestContext | undefined)?.actor?.organizationId;
        spent = await limits.spendCaller(budget, organizationId, costOf(req, res));
        // Work counted once it is done (deliveries queued) is spent afterwards: the next calls pay for it.
        const context = res.locals.context as RequestContext | undefined;
        if (context) {
          context.spendPoints = async (points) => {
            if (points > 0) await limits.spendCaller(budget, organizationId, points);
          };
        }
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
