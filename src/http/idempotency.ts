import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import { DataSource } from "typeorm";
import { refusal, SendError } from "../errors/client-error";
import type { RequestContext } from "../graphql/context";

/** Calls made without an organization (creating one, exchanging a key) share this scope. */
const NO_ORGANIZATION = "00000000-0000-0000-0000-000000000000";
const KEPT_HOURS = 24;
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;


function fingerprint(req: Request): string {
  return createHash("sha256").update(`${req.method} ${req.originalUrl}\n${JSON.stringify(req.body ?? null)}`).digest("hex");
}

/**
 * `Idempotency-Key` on POST (REST and GraphQL), per organization, kept 24 hours in the database so
 * that any process may get the retry: a retry with the same body gets the first answer again with
 * no second write; the same key with another body is 422; a key whose first call is still running
 * is 409. Answers of 5xx are not kept, so the retry runs again.
 */
export function idempotency(options: { db: DataSource; logger: Logger; sendError: SendError }) {
  const { db, logger, sendError } = options;
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.get("idempotency-key");
    if (req.method !== "POST" || key === undefined) return next();
    if (!VALID_KEY.test(key)) {
      return sendError(res, req, refusal("VALIDATION_FAILED", "Idempotency-Key must be 1 to 255 visible ASCII characters", [{ field: "Idempotency-Key", message: "invalid" }]));
    }
    const organizationId = (res.locals.context as RequestContext | undefined)?.actor?.organizationId ?? NO_ORGANIZATION;
    const hash = fingerprint(req);
    try {
      // The one call that inserts (or replaces an expired) row runs; every other one reads the row.
      const claimed = await db.query(
        `INSERT INTO idempotency_keys (organization_id, key, request_hash, expires_at)
         VALUES ($1, $2, $3, now() + interval '${KEPT_HOURS} hours')
         ON CONFLICT (organization_id, key) DO UPDATE
           SET request_hash = EXCLUDED.request_hash, expires_at = EXCLUDED.expires_at,
               response_status = NULL, response_body = NULL, created_at = now()
           WHERE idempotency_keys.expires_at < now()
         RETURNING key`,
        [organizationId, key, hash],
      );
      if (claimed.length === 0) {
        const [row] = await db.query("SELECT request_hash, response_status, response_body FROM idempotency_keys WHERE organization_id = $1 AND key = $2", [organizationId, key]);
        if (!row) return sendError(res, req, refusal("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed"));
        if (row.request_hash !== hash) {
          return sendError(res, req, refusal("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with a different request"));
        }
        if (row.response_status === null) {
          return sendError(res, req, refusal("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed"));
        }
        res.setHeader("Idempotent-Replayed", "true");
        return res.status(row.response_status).type("application/json").send(row.response_body ?? "");
      }
    } catch (error) {
      return next(error);
    }

    const send = res.send.bind(res);
    let recorded = false;
    res.send = (body?: unknown) => {
      if (!recorded) {
        recorded = true;
        const text = body === undefined ? null : typeof body === "string" ? body : Buffer.isBuffer(body) ? body.toString("utf8") : JSON.stringify(body);
        const done = res.statusCode >= 500
          ? db.query("DELETE FROM idempotency_keys WHERE organization_id = $1 AND key = $2", [organizationId, key])
          : db.query("UPDATE idempotency_keys SET response_status = $3, response_body = $4 WHERE organization_id = $1 AND key = $2", [organizationId, key, res.statusCode, text]);
        done.then(
          () => send(body),
          (error) => {
            logger.error({ reqId: req.id, err: error }, "could not record the idempotent answer");
            send(body);
          },
        );
        return res;
      }
      return send(body);
    };
    next();
  };
}
