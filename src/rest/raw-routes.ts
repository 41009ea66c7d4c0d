import type { Request, Response, Router } from "express";
import express from "express";
import { Actor } from "../auth/actor";
import { invalidField, unauthenticated } from "../errors/app-error";
import { SendError, toClientError } from "../errors/client-error";
import type { RequestContext } from "../graphql/context";
import { HttpMethod } from "./route";

export interface RawQueryParameter {
  description: string;
  required?: boolean;
  enum?: string[];
}

/**
 * A REST path answered by a handler of its own instead of a GraphQL operation, for what GraphQL
 * cannot answer, such as a download streamed as rows arrive. It is authenticated like every other
 * path (the request's context, 401 without a token), its query parameters are checked (unknown
 * ones are a 400), and it is listed in the OpenAPI document.
 */
export interface RawRestRoute {
  method: HttpMethod;
  path: string;
  /** The document's operationId, camelCase like the GraphQL-backed routes' operation names. */
  operationId: string;
  summary: string;
  /** What a client must know beyond the summary (how to read the answer), added to the document's description. */
  details?: string;
  tag: string;
  query: Record<string, RawQueryParameter>;
  /** The success answer's content types: plain text, or a JSON array of a GraphQL object type's rows. */
  produces: Record<string, "text" | { arrayOf: string }>;
  /** The points a call spends of its caller's rate limit, from its query parameters (1 when not given). */
  cost?(query: Record<string, unknown>): number;
  /** Writes the answer; may throw an error of the service while nothing has been sent. */
  handle(context: RequestContext & { actor: Actor }, query: Record<string, string>, res: Response): Promise<void>;
}

interface RawRouterOptions {
  sendError: SendError;
  onInternalError: (req: Request, error: unknown) => void;
  /** Called before a route writes its answer, which may stream at its reader's pace (a download). */
  streaming: (res: Response) => void;
}

function readQuery(route: RawRestRoute, raw: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const spec = route.query[name];
    if (!spec) throw invalidField(name, `Unknown query parameter "${name}"`);
    if (typeof value !== "string") throw invalidField(name, `${name} must be given once, as plain text`);
    if (spec.enum && !spec.enum.includes(value)) throw invalidField(name, `${name} must be one of ${spec.enum.join(", ")}`);
    query[name] = value;
  }
  for (const [name, spec] of Object.entries(route.query)) {
    if (spec.required && query[name] === undefined) throw invalidField(name, `${name} is required`);
  }
  return query;
}

export function rawRestRouter(routes: RawRestRoute[], options: RawRouterOptions): Router {
  const router = express.Router();
  for (const route of routes) {
    const method = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
    router[method](route.path.replace(/\{(\w+)\}/g, ":$1"), async (req: Request, res: Response) => {
      try {
        const context = res.locals.context as RequestContext;
        if (!context.actor) throw unauthenticated();
        options.streaming(res);
        await route.handle({ ...context, actor: context.actor }, readQuery(route, req.query as Record<string, unknown>), res);
      } catch (error) {
        const clientError = toClientError(error as Error);
        if (clientError.internal) options.onInternalError(req, error);
        // Once the answer has begun, the only honest signal left is to cut it short.
        if (res.headersSent) res.destroy(error as Error);
        else options.sendError(res, req, clientError);
      }
    });
  }
  return router;
}
