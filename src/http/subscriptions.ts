import type { ErrorCode } from "../errors/error-codes";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { GraphQLError, GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import { decodeJwt } from "jose";
import { WebSocket, WebSocketServer } from "ws";
// The package's exports map names this entry; the compiler's module resolution here reads only main/types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { useServer } = require("graphql-ws/use/ws") as typeof import("graphql-ws/dist/use/ws");
import type { Actor } from "../auth/actor";
import type { Clock } from "../common/clock";
import type { Services } from "../common/services";
import type { Config } from "../config";
import { toClientError } from "../errors/client-error";
import { BODY_LIMIT_BYTES } from "./app";
import { addressGroup, clientAddress, type TrustProxy } from "./client-address";
import { callerBudget, type RateLimits } from "./rate-limits";
import { Loaders } from "../loaders/loaders";
import type { EventStream } from "../modules/events";
import type { RequestContext } from "../graphql/context";
import type { GraphQLDocuments } from "../graphql/documents";
import { GuardedRequest, guardRequest, RefusedRequest } from "../graphql/request-guard";

export interface LiveSubscriptions {
  /** Closes every subscriber's connection (1001, going away) and stops taking new ones. */
  close(): Promise<void>;
}

const refused = (message: string, code: ErrorCode) => [new GraphQLError(message, { extensions: { code, details: [] } })];

/** The most subscriptions one socket runs at once. */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 50;
/** How long a subscriber's standing (API key, staff member, permissions) is trusted before a delivery checks it again. */
export const STANDING_RECHECK_MS = 60_000;

/** Close codes of the service's own (graphql-ws keeps 4400–4499 for its protocol but for these). */
export const CLOSE_TOKEN_EXPIRED = 4410;
export const CLOSE_ACCESS_WITHDRAWN = 4403;
export const CLOSE_TOO_MANY_CONNECTIONS = 4429;

/** What one socket is for: its caller, the token it came with, and when that was last found good. */
interface Connection {
  actor: Actor;
  token: string;
  expiresAt: number;
  checkedAt: number;
}

const principalOf = (actor: Actor) => `${actor.apiKeyId}:${actor.staffId ?? ""}`;
const samePermissions = (a: Actor, b: Actor) => a.permissions.size === b.permissions.size && [...a.permissions].every((p) => b.permissions.has(p));

/** Counts sockets per name; a name over its limit is refused. */
class SocketCounts {
  private readonly counts = new Map<string, number>();
  constructor(private readonly limit: number) {}

  /** Takes a place for `name` until the socket closes; false when the name has no place left. */
  take(name: string, socket: WebSocket): boolean {
    const count = this.counts.get(name) ?? 0;
    if (count >= this.limit) return false;
    this.counts.set(name, count + 1);
    socket.once("close", () => {
      const left = (this.counts.get(name) ?? 1) - 1;
      if (left > 0) this.counts.set(name, left);
      else this.counts.delete(name);
    });
    return true;
  }
}

/**
 * GraphQL subscriptions over `graphql-ws`, on the HTTP server's own port and path (/graphql, a
 * WebSocket upgrade). A connection is accepted only with a valid token in its `authorization`
 * connection parameter ("Bearer …"); each subscription document is held to the same guard, query
 * limits and rate limit as a request, and only subscriptions run here (queries and mutations are
 * HTTP requests, where the audit trail knows who made them).
 */
export function serveSubscriptions(parts: {
  server: http.Server;
  schema: GraphQLSchema;
  documents: GraphQLDocuments;
  services: Services;
  stream: EventStream;
  logger: Logger;
  clock: Clock;
  limits: Pick<Config, "websocketsPerCaller" | "websocketsPerAddress">;
  trustProxy: TrustProxy;
  rateLimits?: RateLimits;
}): LiveSubscriptions {
  const { schema, documents, services, stream, logger, rateLimits, clock } = parts;
  // Frames are held to the size of an HTTP body, before anyone has signed in.
  const wss = new WebSocketServer({ server: parts.server, path: "/graphql", maxPayload: BODY_LIMIT_BYTES });
  const connections = new WeakMap<object, Connection>();
  const perAddress = new SocketCounts(parts.limits.websocketsPerAddress);
  const perCaller = new SocketCounts(parts.limits.websocketsPerCaller);
  const expiryTimers = new Set<NodeJS.Timeout>();
  wss.on("connection", (socket, request) => {
    if (!perAddress.take(addressGroup(clientAddress(request, parts.trustProxy)), socket))
      socket.close(CLOSE_TOO_MANY_CONNECTIONS, "Too many connections from this address");
    // A frame over the limit (or any frame ws cannot read) closes the socket itself (1009, 1002…);
    // graphql-ws would also print each such error to the console, which a client could flood.
    process.nextTick(() => {
      socket.removeAllListeners("error");
      socket.on("error", (error) => {
        logger.info({ err: { message: error.message } }, "WebSocket closed: the client sent what it may not");
        // ws has sent its close frame; the rest of an oversized frame is not worth reading.
        setImmediate(() => socket.terminate());
      });
    });
  });

  /**
   * The caller's standing, read again when a delivery finds it older than STANDING_RECHECK_MS: a
   * revoked key, a staff member who left, an expired token or changed permissions end the socket.
   */
  const standing = async (connection: Connection): Promise<{ code: number; reason: string } | undefined> => {
    const now = clock.now().getTime();
    if (now >= connection.expiresAt) return { code: CLOSE_TOKEN_EXPIRED, reason: "The access token has expired" };
    if (now - connection.checkedAt < STANDING_RECHECK_MS) return undefined;
    try {
      const actor = await services.access.authenticate(connection.token);
      if (!samePermissions(actor, connection.actor)) return { code: CLOSE_ACCESS_WITHDRAWN, reason: "The caller's permissions changed: connect again" };
      connection.checkedAt = now;
      return undefined;
    } catch (error) {
      return { code: CLOSE_ACCESS_WITHDRAWN, reason: toClientError(error as Error).message };
    }
  };

  const server = useServer(
    {
      schema,
      onConnect: async (ctx) => {
        const header = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
        const token = typeof header === "string" ? /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] : undefined;
        if (!token) return false;
        let actor: Actor;
        try {
          actor = await services.access.authenticate(token);
        } catch {
          return false;
        }
        const socket = ctx.extra.socket;
        if (!perCaller.take(principalOf(actor), socket)) {
          socket.close(CLOSE_TOO_MANY_CONNECTIONS, "Too many connections for this caller");
          return false;
        }
        // The token was verified just above; its expiry ends the socket, with a code of its own.
        const expiresAt = Number(decodeJwt(token).exp) * 1000;
        connections.set(ctx, { actor, token, expiresAt, checkedAt: clock.now().getTime() });
        const timer = setTimeout(
          () => socket.close(CLOSE_TOKEN_EXPIRED, "The access token has expired"),
          Math.max(0, expiresAt - clock.now().getTime()),
        ).unref();
        expiryTimers.add(timer);
        socket.once("close", () => {
          clearTimeout(timer);
          expiryTimers.delete(timer);
        });
        return true;
      },
      onSubscribe: async (ctx, id, payload) => {
        const actor = connections.get(ctx)?.actor;
        if (!actor) return refused("Sign in first: the connection's authorization parameter carries the token", "UNAUTHENTICATED");
        // The subscription being taken is already counted.
        if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_SOCKET) {
          return refused(`A connection runs at most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions at once`, "TOO_MANY_SUBSCRIPTIONS");
        }
        let guarded: GuardedRequest;
        try {
          guarded = guardRequest(schema, documents, payload, true, false, "websocket");
        } catch (error) {
          if (error instanceof RefusedRequest) return error.errors;
          throw error;
        }
        const { document, cost } = guarded;
        const errors = guarded.validated ? [] : documents.validate(guarded.text, document);
        if (errors.length) return [...errors];
        const variableValues = payload.variables ?? {};
        if (rateLimits?.enabled) {
          const spent = (await rateLimits.spendCaller(callerBudget(actor), actor.organizationId, cost)).find((b) => !b.allowed);
          if (spent) return refused(`Rate limit reached: ${spent.points} points per ${spent.windowSeconds} s`, "RATE_LIMITED");
        }
        const requestId = randomUUID();
        const context: RequestContext = {
          requestId,
          actor,
          presentedKey: null,
          services,
          loaders: new Loaders(),
          logger: logger.child({ reqId: requestId, subscription: id }),
          eventStream: stream,
        };
        return { schema, document, operationName: payload.operationName, variableValues, contextValue: context };
      },
      // Errors in the same words as over HTTP: the client's code and message, never an internal cause.
      onNext: async (ctx, _id, _payload, _args, result) => {
        const connection = connections.get(ctx);
        const ended = connection && (await standing(connection));
        if (ended) {
          // Nothing of the event is sent; the socket closes once this error is out.
          setImmediate(() => ctx.extra.socket.close(ended.code, ended.reason));
          return { errors: [{ message: ended.reason, extensions: { code: "UNAUTHENTICATED", details: [] } }] };
        }
        if (!result.errors?.length) return;
        return {
          ...result,
          errors: result.errors.map((e) => {
            const c = toClientError(e);
            if (c.internal) logger.error({ err: e }, "internal error in a subscription");
            return { message: c.message, path: e.path, extensions: { code: c.code, details: c.details } };
          }),
        };
      },
    },
    wss,
  );
  return {
    async close() {
      for (const timer of expiryTimers) clearTimeout(timer);
      await server.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
