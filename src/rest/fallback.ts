import type { Request, Response } from "express";
import { refusal, SendError } from "../errors/client-error";
import { HttpMethod } from "./route";

/**
 * What /api answers when no route took the request: 405 with `Allow` on a known path called with
 * another method, else 404; both name the path as it was called.
 */
export function restFallback(routes: { method: HttpMethod; path: string }[], sendError: SendError) {
  const paths = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const { method, path } of routes) {
    const known = paths.get(path) ?? { pattern: new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}/?$`), methods: new Set<string>() };
    known.methods.add(method);
    paths.set(path, known);
  }
  return (req: Request, res: Response) => {
    const path = req.originalUrl.split("?")[0];
    const allowed = new Set<string>();
    for (const { pattern, methods } of paths.values()) if (pattern.test(path)) methods.forEach((m) => allowed.add(m));
    if (allowed.size) {
      const allow = [...allowed].join(", ");
      res.setHeader("Allow", allow);
      return sendError(res, req, refusal("METHOD_NOT_ALLOWED", `${req.method} is not a method of ${path}; it answers ${allow}`));
    }
    sendError(res, req, refusal("NOT_FOUND", `No route for ${req.method} ${path}`));
  };
}
