import { isUtf8 } from "node:buffer";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import express, { NextFunction, Request, Response } from "express";
import { GraphQLError, GraphQLFormattedError, GraphQLSchema } from "graphql";
import { ApolloServerErrorCode, unwrapResolverError } from "@apollo/server/errors";
import type { Logger } from "pino";
import { DataSource } from "typeorm";
import type { Services } from "../common/services";
import type { Config } from "../config";
import { unstorableText, unstorableTextIn } from "../common/validation";
import { ifMatchFailed, unauthenticated } from "../errors/app-error";
import { capErrorBody, ClientError, refusal, toClientError } from "../errors/client-error";
import type { RequestContext } from "../graphql/context";
import { compiledExecutor } from "../graphql/compiled-operations";
import { GraphQLDocuments } from "../graphql/documents";
import { graphiqlRouter } from "../graphql/graphiql";
import { GuardedRequest, guardRequest, PUBLIC_BODY_MAX_BYTES, RefusedRequest } from "../graphql/request-guard";
import { Loaders, requestLoaders } from "../loaders/loaders";
import { restFallback } from "../rest/fallback";
import { openApiDocument } from "../rest/openapi";
import { RawRestRoute, rawRestRouter } from "../rest/raw-routes";
import { CompiledRoute, restRouter } from "../rest/shim";
import type { TrustProxy } from "./client-address";
import { idempotency } from "./idempotency";
import { ARRIVED_AT, requestAdmission } from "./request-admission";
import { loggableUrl } from "./logger";
import { watchProcessHealth } from "./process-health";
import { MAX_CALL_COST, RateLimits, rateLimiting, restCosts } from "./rate-limits";
import { mcpCallCost, mcpHandler } from "../mcp/server";
import { ReadRouting } from "../database/read-routing";
import { recordVersionOf, requestActor } from "../database/request-actor";
import type { UnitOfWork } from "../database/unit-of-work";
import { answerInPieces, graphqlEndpoint } from "./graphql-endpoint";

export const BODY_LIMIT = "1mb";
/** The same limit in bytes, for WebSocket frames. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

declare module "express-serve-static-core" {
  interface Request {
    id: string;
  }
}

export interface AppParts {
  db: DataSource;
  unitOfWork: UnitOfWork;
  services: Services;
  /** What the modules serve: the GraphQL schema and the REST paths (src/app/modules.ts), validated once at start. */
  api: { schema: GraphQLSchema; compiled: CompiledRoute[]; rawRestRoutes: RawRestRoute[] };
  logger: Logger;
  timeouts: Pick<Config, "headersTimeoutMs" | "requestTimeoutMs" | "keepAliveTimeoutMs">;
  /** Requests worked on at once (CONCURRENT_REQUESTS); the rest wait in line, at most `maxWaitInLineMs` (MAX_WAIT_IN_LINE_MS, 0: no limit). */
  concurrentRequests: number;
  maxWaitInLineMs: number;
  /** Which proxies may name the client (TRUST_PROXY): `req.ip` is the client's address everywhere. */
  trustProxy: Config["trustProxy"];
  rateLimits: RateLimits;
  reads: ReadRouting;
}

export interface RunningApp {
  app: express.Express;
  server: http.Server;
  apollo: ApolloServer<RequestContext>;
  /** The OpenAPI document served at /api/openapi.json, built at its first use (a start need not wait for it). */
  openapi: () => Record<string, unknown>;
  /** Express's compiled `trust proxy`, for the addresses of requests it does not see (WebSocket upgrades). */
  trustProxy: TrustProxy;
  /** The parsed and validated GraphQL documents, shared with the subscriptions. */
  documents: GraphQLDocuments;
}

/**
 * A 401 says how to authenticate (RFC 9110 §11.6.1, RFC 6750 §3): a bearer token, and when one was
 * sent, that it is not valid and why, so that a client knows to exchange its API key again.
 */
function challengeUnauthenticated(res: Response, req: Request, status: number, message: string): void {
  if (status !== 401) return;
  const sent = req.get("authorization") !== undefined;
  res.setHeader("WWW-Authenticate", `Bearer realm="api"${sent ? `, error="invalid_token", error_description="${message.replace(/["\\]/g, "")}"` : ""}`);
}

/** The error body of every REST answer: {error: {code, message, details, requestId}}. */
export function sendError(res: Response, req: Request, given: Pick<ClientError, "code" | "message" | "status" | "details">): void {
  const error = capErrorBody(given);
  challengeUnauthenticated(res, req, error.status, error.message);
  res.status(error.status).json({ error: { code: error.code, message: error.message, details: error.details, requestId: req.id } });
}

/** A refusal in the interface's own form: GraphQL errors on /graphql, the error body on /api. */
function refuse(req: Request, res: Response, e: Pick<ClientError, "code" | "message" | "status" | "details">): void {
  if (req.baseUrl === "/graphql") {
    challengeUnauthenticated(res, req, e.status, e.message);
    res.status(e.status).json({ errors: [{ message: e.message, extensions: { code: e.code, details: e.details, requestId: req.id } }] });
  } else {
    sendError(res, req, e);
  }
}

const SAFE_REQUEST_ID = /^[\w.:-]{1,100}$/;

/** The decoded segments of a path (a malformed escape is left as sent; routing refuses it). */
function pathSegments(path: string): string[] {
  return path.split("/").map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
}

/** A GraphQL error in the words of every GraphQL answer: internal causes are never told (the log has them whole). */
function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const clientError = toClientError(error as Error);
  return {
    message: clientError.message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: clientError.code, details: clientError.details },
  };
}

/** Builds the HTTP application: health, GraphiQL, GraphQL, the REST shim and OpenAPI. */
export async function createApp(parts: AppParts): Promise<RunningApp> {
  const { db, services, logger, rateLimits } = parts;
  const { schema, compiled, rawRestRoutes } = parts.api;
  let document: Record<string, unknown> | undefined;
  const openapi = () => (document ??= openApiDocument(schema, compiled, rawRestRoutes));
  const app = express();
  // Slow clients are closed rather than held: headers, then the whole request, each within its time.
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = parts.timeouts;
  const server = http.createServer(
    // Node looks for overdue requests every connectionsCheckingInterval (30 s by default): often enough here that the limits hold.
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, headersTimeoutMs),
    },
    app,
  );
  app.disable("x-powered-by");
  app.set("trust proxy", parts.trustProxy);
  // The REST shim sets the ETags that If-Match can use; express would hash every other answer too.
  app.set("etag", false);
  app.set("query parser", "simple");

  app.use((req, res, next) => {
    const given = req.get("x-request-id");
    req.id = given && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader("X-Request-Id", req.id);
    const arrived = performance.now();
    res.locals[ARRIVED_AT] = arrived;
    res.on("finish", () => {
      const ms = performance.now() - arrived;
      logger.info({ reqId: req.id, method: req.method, url: loggableUrl(req.originalUrl), status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
    });
    next();
  });

  // The API's calls take their turn (see where `admission.admit` is used); health checks never wait.
  const tooBusy = `The service is too busy: the call waited ${Math.round(parts.maxWaitInLineMs / 100) / 10} s for its turn; retry after Retry-After seconds`;
  const admission = requestAdmission(parts.concurrentRequests, {
    ms: parts.maxWaitInLineMs,
    turnAway: (req, res) => {
      res.setHeader("Retry-After", "1");
      sendError(res, req, { code: "SERVICE_UNAVAILABLE", status: 503, message: tooBusy, details: [] });
    },
  });
  const health = watchProcessHealth(admission);
  server.on("close", () => health.stop());
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok", process: health.read() });
  });
  // Ready while the primary answers; each replica's state is shown (a replica down or behind only sends its reads to the primary).
  app.get("/readyz", async (req, res) => {
    const databases = await parts.reads.health();
    if (databases[0].status === "ok") return res.json({ status: "ready", databases });
    logger.warn({ reqId: req.id }, "readiness check failed: the primary database is unreachable");
    res.status(503).json({ error: { code: "SERVICE_UNAVAILABLE", message: "The database is unreachable", details: [], requestId: req.id }, databases });
  });
  app.get("/api/openapi.json", (_req, res) => {
    res.json(openapi());
  });
  app.use(graphiqlRouter());

  // A calendar feed needs no header (calendar programs cannot send one): the secret in its path is a
  // read-only capability for that feed alone. Rate limited per feed like any token, an unknown
  // secret like any anonymous call (per address, against guessing).
  app.get(
    "/calendar/:file",
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        const secret = /^(.+)\.ics$/.exec(req.params.file as string)?.[1];
        res.locals.calendarFeed = secret ? await services.calendarFeeds.feedOf(secret) : undefined;
        next();
      } catch (error) {
        next(error);
      }
    },
    rateLimiting(
      rateLimits,
      () => 1,
      sendError,
      (_req, res) => (res.locals.calendarFeed ? `calendar:${res.locals.calendarFeed.id}` : undefined),
    ),
    admission.admit,
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        const feed = res.locals.calendarFeed;
        if (!feed) return sendError(res, req, { code: "NOT_FOUND", message: "Calendar feed not found", status: 404, details: [] });
        const { text, etag } = await services.calendarFeeds.render(feed);
        res.setHeader("ETag", etag);
        res.setHeader("Cache-Control", "private, no-cache");
        const known = (req.get("if-none-match") ?? "").split(",").map((t) => t.trim().replace(/^W\//, ""));
        if (known.includes(etag) || known.includes("*")) return res.status(304).end();
        res.type("text/calendar; charset=utf-8").send(text);
      } catch (error) {
        next(error);
      }
    },
  );

  // Without a credential only a public operation may be asked, and its body is small: a larger one
  // is refused as its document would be, unread (Node discards the rest), so a flood of large
  // bodies without a token costs no JSON parse, which was most of what each cost.
  app.use("/graphql", (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "POST" || req.get("authorization") !== undefined || !(Number(req.get("content-length")) > PUBLIC_BODY_MAX_BYTES)) return next();
    refuse(req, res, toClientError(unauthenticated()));
  });
  app.use(
    express.json({
      limit: BODY_LIMIT,
      type: ["application/json", "application/*+json"],
      // Invalid UTF-8 would otherwise be decoded into replacement characters and stored as if meant.
      verify: (_req, _res, buf) => {
        if (!isUtf8(buf)) throw Object.assign(new Error("The request body is not valid UTF-8"), { status: 400, type: "encoding.invalid" });
      },
    }),
  );

  const onInternalError = (req: Request, error: unknown) => logger.error({ reqId: req.id, err: error }, "internal error");

  /** The context of one request, for GraphQL and REST alike. */
  const contextFor = async (req: Request): Promise<RequestContext> => {
    const header = req.get("authorization") ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    const credential = match?.[1] ?? null;
    const isToken = credential !== null && credential.split(".").length === 3;
    if (credential !== null && !isToken) services.access.refuseKeyAsToken(credential);
    const actor = isToken ? await services.access.authenticate(credential) : null;
    return {
      requestId: req.id,
      actor,
      presentedKey: isToken ? null : credential,
      clientAddress: req.ip,
      clockDeviceToken: req.get("x-clock-device") || undefined,
      services,
      loaders: new Loaders(actor?.organizationId ?? null),
      logger: logger.child({ reqId: req.id }),
    };
  };

  const documents = new GraphQLDocuments(schema);
  const apollo = new ApolloServer<RequestContext>({
    gateway: compiledExecutor(schema),
    // Every document reaches Apollo parsed and validated, through the guard: found here, it is not parsed again.
    documentStore: documents,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      // No HTTP caching of answers here; the plugin would otherwise wrap every field resolver.
      ApolloServerPluginCacheControlDisabled(),
      {
        async requestDidStart() {
          return {
            async didEncounterErrors({ contextValue, errors }) {
              for (const error of errors) {
                if (toClientError(error).internal) logger.error({ reqId: contextValue.requestId, err: unwrapResolverError(error) }, "internal error");
              }
            },
            async willSendResponse({ contextValue, response }) {
              if (response.body.kind !== "single") return;
              for (const error of response.body.singleResult.errors ?? []) {
                (error.extensions as Record<string, unknown>).requestId = contextValue.requestId;
              }
            },
          };
        },
      },
    ],
    formatError: formatGraphQLError,
    stringifyResult: answerInPieces,
  });
  await apollo.start();

  // Text the database cannot store is refused here, once, wherever it comes: path, query string or body.
  app.use(["/graphql", "/api", "/mcp"], (req: Request, res: Response, next: NextFunction) => {
    const body =
      req.baseUrl === "/graphql" && req.body && typeof req.body === "object" && !Array.isArray(req.body)
        ? (req.body as Record<string, unknown>).variables
        : req.body;
    const field = unstorableTextIn(pathSegments(req.path)) !== undefined ? "path" : (unstorableTextIn(req.query) ?? unstorableTextIn(body));
    if (field === undefined) return next();
    refuse(req, res, toClientError(unstorableText(field)));
  });

  // Every GraphQL, REST and MCP request gets its context (and a bad token its 401) here, once.
  app.use(["/graphql", "/api", "/mcp"], async (req: Request, res: Response, next: NextFunction) => {
    try {
      const context = await contextFor(req);
      res.locals.context = context;
      const actor = context.actor;
      // Everything this request does from here on is done for this actor; the audit trail says so.
      const ifMatch = recordVersionOf(req.get("if-match"));
      // GraphQL can check only a record version; REST compares any ETag in the shim. Both refuse a
      // condition that cannot hold rather than write without it.
      if (ifMatch === null && req.baseUrl === "/graphql") throw ifMatchFailed();
      const acting = { staffId: actor?.staffId ?? null, apiKeyId: actor?.apiKeyId ?? null, requestId: req.id, ...(ifMatch ? { ifMatch } : {}) };
      requestLoaders.run(context.loaders, () => requestActor.run(acting, next));
    } catch (error) {
      refuse(req, res, toClientError(error as Error));
    }
  });
  // A GraphQL request is sized up, and an anonymous one held to the public operations, before
  // Apollo validates it: validation itself is what a hostile document makes slow.
  app.use("/graphql", (req: Request, res: Response, next: NextFunction) => {
    try {
      const guarded = guardRequest(
        schema,
        documents,
        req.method === "GET" ? req.query : req.body,
        Boolean((res.locals.context as RequestContext).actor),
        req.method === "GET",
      );
      res.locals.graphql = guarded;
      next();
    } catch (error) {
      if (!(error instanceof RefusedRequest)) return next(error);
      challengeUnauthenticated(res, req, error.status, error.errors[0].message);
      res.status(error.status).json({ errors: error.errors.map((e) => ({ ...e.toJSON(), extensions: { ...e.extensions, requestId: req.id } })) });
    }
  });
  if (rateLimits.enabled) app.use(restCosts(compiled, rawRestRoutes));
  const requestCost = (req: Request, res: Response): number => {
    if (req.baseUrl === "/graphql") return (res.locals.graphql as GuardedRequest | undefined)?.cost ?? 1;
    if (req.baseUrl === "/mcp") return Math.min(MAX_CALL_COST, mcpCallCost(req.body));
    return (res.locals.cost as number | undefined) ?? 1;
  };
  app.use(["/graphql", "/api", "/mcp"], rateLimiting(rateLimits, requestCost, sendError));
  // Calls take their turn once they are known to be allowed: a caller over its budget or without
  // standing is answered at once and never keeps others waiting.
  app.use(["/graphql", "/api", "/mcp"], admission.admit);
  app.use(
    idempotency({
      db,
      unitOfWork: parts.unitOfWork,
      logger,
      sendError,
      compiled,
      isPlatformKey: (presented) => services.organizations.isPlatformKey(presented),
    }),
  );

  // Validated here, once the caller's rate limit allows the call, and only the first time its text is seen.
  // An invalid document is answered as Apollo itself would, with its code (mapped to BAD_REQUEST like its others).
  app.use("/graphql", (req: Request, res: Response, next: NextFunction) => {
    const guarded = res.locals.graphql as GuardedRequest;
    const errors = guarded.validated ? [] : documents.validate(guarded.text, guarded.document);
    if (errors.length === 0) return next();
    res.status(400).json({
      errors: errors.map((e) => {
        const formatted = formatGraphQLError(
          e.toJSON(),
          new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED } }),
        );
        return { ...formatted, extensions: { ...formatted.extensions, requestId: req.id } };
      }),
    });
  });
  app.use(
    "/graphql",
    graphqlEndpoint(apollo, (res) => res.locals.context as RequestContext),
  );
  app.use("/mcp", mcpHandler({ schema, onInternalError }));

  // Before the GraphQL-backed routes: a fixed path such as /api/timesheets/export must win over /api/timesheets/{id}.
  // A download goes at its reader's pace: it does not keep others waiting meanwhile.
  app.use(rawRestRouter(rawRestRoutes, { sendError, onInternalError, streaming: admission.leave }));
  app.use(restRouter(compiled, { schema, sendError, onInternalError }));

  app.use("/api", restFallback([...compiled.map((c) => c.route), ...rawRestRoutes], sendError));
  app.use((req, res) => {
    sendError(res, req, refusal("NOT_FOUND", `No route for ${req.method} ${req.path}`));
  });

  // Errors of the body parser and anything else that escaped a handler.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    void _next;
    const e = error as { type?: string; status?: number };
    if (e?.type === "entity.too.large") return sendError(res, req, refusal("PAYLOAD_TOO_LARGE", `The request body exceeds ${BODY_LIMIT}`));
    if (e?.type === "entity.parse.failed") return sendError(res, req, refusal("BAD_REQUEST", "The request body is not valid JSON"));
    if (e?.type === "encoding.invalid") return sendError(res, req, refusal("BAD_REQUEST", "The request body is not valid UTF-8"));
    if (e?.status && e.status >= 400 && e.status < 500)
      return sendError(res, req, { code: "BAD_REQUEST", message: "The request could not be read", status: e.status, details: [] });
    const clientError = toClientError(error as Error);
    if (clientError.internal) onInternalError(req, error);
    sendError(res, req, clientError);
  });

  return { app, server, apollo, openapi, trustProxy: app.get("trust proxy fn") as TrustProxy, documents };
}
