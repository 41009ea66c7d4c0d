import type { ErrorCode } from "../errors/error-codes";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { GraphQLError, GraphQLSchema, parse, specifiedRules, validate } from "graphql";
import type { Logger } from "pino";
import { WebSocketServer } from "ws";
// The package's exports map names this entry; the compiler's module resolution here reads only main/types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { useServer } = require("graphql-ws/use/ws") as typeof import("graphql-ws/dist/use/ws");
import type { Actor } from "../auth/actor";
import type { Services } from "../common/services";
import { toClientError } from "../errors/client-error";
import type { RateLimits } from "../http/rate-limits";
import { Loaders } from "../loaders/loaders";
import type { EventStream } from "../modules/events/event-stream";
import type { RequestContext } from "./context";
import { operationCost, queryLimitsRule } from "./limits";
import { guardRequest, RefusedRequest } from "./request-guard";

export interface LiveSubscriptions {
  /** Closes every subscriber's connection (1001, going away) and stops taking new ones. */
  close(): Promise<void>;
}

const refused = (message: string, code: ErrorCode) => [new GraphQLError(message, { extensions: { code, details: [] } })];

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
  services: Services;
  stream: EventStream;
  logger: Logger;
  rateLimits?: RateLimits;
}): LiveSubscriptions {
  const { schema, services, stream, logger, rateLimits } = parts;
  const wss = new WebSocketServer({ server: parts.server, path: "/graphql" });
  const actors = new WeakMap<object, Actor>();
  const server = useServer(
    {
      schema,
      onConnect: async (ctx) => {
        const header = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
        const token = typeof header === "string" ? /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] : undefined;
        if (!token) return false;
        try {
          actors.set(ctx, await services.access.authenticate(token));
          return true;
        } catch {
          return false;
        }
      },
      onSubscribe: async (ctx, id, payload) => {
        const actor = actors.get(ctx);
        if (!actor) return refused("Sign in first: the connection's authorization parameter carries the token", "UNAUTHENTICATED");
        try {
          guardRequest(schema, payload, true, false, "websocket");
        } catch (error) {
          if (error instanceof RefusedRequest) return error.errors;
          throw error;
        }
        const document = parse(payload.query);
        const errors = validate(schema, document, [...specifiedRules, queryLimitsRule()]);
        if (errors.length) return errors;
        const variableValues = payload.variables ?? {};
        if (rateLimits?.enabled) {
          const spent = await rateLimits.spendToken(actor.staffId ? `staff:${actor.staffId}` : `key:${actor.apiKeyId}`, operationCost(schema, document, variableValues, payload.operationName ?? undefined));
          if (!spent.allowed) return refused(`Rate limit reached: ${spent.points} points per ${spent.windowSeconds} s`, "RATE_LIMITED");
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
      onNext: (_ctx, _id, _payload, _args, result) => {
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
      await server.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
