import { createHash } from "node:crypto";
import express, { NextFunction, Request, Response, Router } from "express";
import { Kind } from "graphql";
import type { Logger } from "pino";
import { DataSource } from "typeorm";
import type { Actor } from "../auth/actor";
import type { Permission } from "../auth/permissions";
import type { ScheduledJob } from "../common/services";
import type { UnitOfWork } from "../database/unit-of-work";
import { refusal, SendError } from "../errors/client-error";
import { permissionsOf } from "../graphql/authorization";
import type { RequestContext } from "../graphql/context";
import type { GuardedRequest } from "../graphql/request-guard";
import type { CompiledRoute } from "../rest/shim";

/** Calls made with the platform key (creating an organization) are kept under this organization. */
const NO_ORGANIZATION = "00000000-0000-0000-0000-000000000000";
const KEPT_HOURS = 24;
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;
/** The largest answer kept for a replay; a larger one keeps the key claimed, and its replay is refused. */
export const MAX_KEPT_ANSWER_BYTES = 64 * 1024;
/** Statuses never kept: a refusal of who calls says nothing about the call, and must not outlive the caller's standing. */
const NEVER_KEPT = new Set([401, 403, 429]);
const REFUSED_CODES = new Set(["UNAUTHENTICATED", "FORBIDDEN", "RATE_LIMITED"]);
/**
 * Credentials an answer may carry, alone or inside a text (a calendar feed's secret URL): the
 * service's own secrets (`wf<kind>_…`: API keys, the platform key, clock devices' tokens, calendar
 * feeds'), webhook signing secrets and access tokens. Never kept in clear text.
 */
const SECRET = /\bwf[a-z]_[\w-]{20,}|\bwhsec_[\w+/=]{20,}|\beyJ[\w-]*\.[\w-]+\.[\w-]+/;
export const REDACTED = "[redacted]";

/** Who a kept answer belongs to: only the same caller gets it again. */
interface Principal {
  organizationId: string;
  /** `key:<apiKeyId>` for an organization-wide token, `key:<apiKeyId>:staff:<staffId>` for a staff member's, `platform` for the platform key. */
  name: string;
}

function principalOf(actor: Actor): Principal {
  return { organizationId: actor.organizationId, name: actor.staffId ? `key:${actor.apiKeyId}:staff:${actor.staffId}` : `key:${actor.apiKeyId}` };
}

function fingerprint(req: Request): string {
  return createHash("sha256")
    .update(`${req.method} ${req.originalUrl}\n${JSON.stringify(req.body ?? null)}`)
    .digest("hex");
}

/** The answer with every credential in it replaced, and whether there was one. */
export function withoutSecrets(text: string): { text: string; redacted: boolean } {
  let redacted = false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { text, redacted };
  }
  const clean = JSON.stringify(parsed, (_key, value) => {
    // A text holding a credential is replaced whole: a URL with a secret in it is a secret.
    if (typeof value !== "string" || !SECRET.test(value)) return value;
    redacted = true;
    return REDACTED;
  });
  return { text: clean, redacted };
}

/** Whether a GraphQL answer refuses its caller (such an answer, like a 401/403/429, is not kept). */
function refusesCaller(text: string): boolean {
  try {
    const body = JSON.parse(text) as { errors?: { extensions?: { code?: unknown } }[] };
    return (body.errors ?? []).some((e) => REFUSED_CODES.has(String(e.extensions?.code)));
  } catch {
    return false;
  }
}

function holdsAny(actor: Actor | null, permissions: Permission[] | undefined): boolean {
  if (permissions === undefined) return true;
  return actor !== null && (permissions.length === 0 || permissions.some((p) => actor.permissions.has(p)));
}

export interface IdempotencyOptions {
  db: DataSource;
  /** The keys' claims and answers are written in units of work of their own. */
  unitOfWork: UnitOfWork;
  logger: Logger;
  sendError: SendError;
  compiled: CompiledRoute[];
  /** Whether a bearer credential that is not a token is the platform key. */
  isPlatformKey(presented: string | null): boolean;
}

/**
 * `Idempotency-Key` on POST (REST and GraphQL mutations), kept 24 hours in the database so that
 * any process may get the retry. A key belongs to its caller (organization, API key and staff
 * member, or the platform key) and is looked at only once the caller is known to be allowed the
 * call: a retry by the same caller with the same body gets the first answer again with no second
 * write; another caller's same key is another key. The same key with another body is 422; a key
 * whose first call is still running is 409. Anonymous calls (the token exchange), read-only
 * GraphQL operations and calls refused before they run are never kept. Answers of 5xx, 401, 403
 * and 429 are not kept, so the retry runs again; a credential in an answer is kept redacted, and
 * its replay says so (`Idempotent-Redacted: true`).
 */
export function idempotency(options: IdempotencyOptions): Router {
  const { db, unitOfWork, logger, sendError } = options;
  const router = express.Router();

  /** The caller's principal when the call may run at all; undefined when it is not kept. */
  const principalFor = (res: Response, permissions: Permission[] | undefined, auth: "token" | "platform" | "none"): Principal | undefined => {
    const context = res.locals.context as RequestContext | undefined;
    if (!context) return undefined;
    if (auth === "platform") return options.isPlatformKey(context.presentedKey) ? { organizationId: NO_ORGANIZATION, name: "platform" } : undefined;
    if (auth === "none" || !context.actor || !holdsAny(context.actor, permissions)) return undefined;
    return principalOf(context.actor);
  };

  const keep = (principal: Principal | undefined, req: Request, res: Response, next: NextFunction) => {
    const key = req.get("idempotency-key");
    if (key === undefined || principal === undefined) return next("router");
    if (!VALID_KEY.test(key)) {
      return sendError(
        res,
        req,
        refusal("VALIDATION_FAILED", "Idempotency-Key must be 1 to 255 visible ASCII characters", [{ field: "Idempotency-Key", message: "invalid" }]),
      );
    }
    claim(principal, key, req, res, next).catch((error) => next(error));
  };

  const claim = async (principal: Principal, key: string, req: Request, res: Response, next: NextFunction) => {
    const graphql = req.path === "/graphql";
    const scope = [principal.organizationId, principal.name, key];
    const hash = fingerprint(req);
    // The one call that inserts (or replaces an expired) row runs; every other one reads the row.
    const claimed = await unitOfWork.run((manager) =>
      manager.query(
        `INSERT INTO idempotency_keys (organization_id, principal, key, request_hash, expires_at)
       VALUES ($1, $2, $3, $4, now() + interval '${KEPT_HOURS} hours')
       ON CONFLICT (organization_id, principal, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, expires_at = EXCLUDED.expires_at,
             response_status = NULL, response_body = NULL, response_redacted = false, created_at = now()
         WHERE idempotency_keys.expires_at < now()
       RETURNING key`,
        [...scope, hash],
      ),
    );
    if (claimed.length === 0) {
      const [row] = await db.query(
        "SELECT request_hash, response_status, response_body, response_redacted FROM idempotency_keys WHERE organization_id = $1 AND principal = $2 AND key = $3",
        scope,
      );
      if (!row) return sendError(res, req, refusal("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed"));
      if (row.request_hash !== hash) {
        return sendError(res, req, refusal("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with a different request"));
      }
      if (row.response_status === null) {
        return sendError(res, req, refusal("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed"));
      }
      if (row.response_body === null) {
        return sendError(
          res,
          req,
          refusal(
            "IDEMPOTENCY_ANSWER_NOT_KEPT",
            `The first answer to this Idempotency-Key was larger than ${MAX_KEPT_ANSWER_BYTES} bytes and was not kept; it was not run again: read the result instead`,
          ),
        );
      }
      res.setHeader("Idempotent-Replayed", "true");
      if (row.response_redacted) res.setHeader("Idempotent-Redacted", "true");
      return res.status(row.response_status).type("application/json").send(row.response_body);
    }

    // The answer is held back, however it is written (whole or in pieces), until it is kept.
    const write = res.write.bind(res) as (chunk: Buffer) => boolean;
    const end = res.end.bind(res) as (chunk?: Buffer) => Response;
    const written: Buffer[] = [];
    res.write = ((chunk: string | Uint8Array, encoding?: BufferEncoding | (() => void)) => {
      written.push(
        typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8") : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk),
      );
      return true;
    }) as Response["write"];
    res.end = ((chunk?: string | Uint8Array | (() => void), encoding?: BufferEncoding | (() => void)) => {
      if (chunk !== undefined && typeof chunk !== "function") res.write(chunk, encoding as BufferEncoding);
      res.write = write as Response["write"];
      res.end = end as Response["end"];
      const body = Buffer.concat(written);
      const text = body.toString("utf8");
      const forgotten = res.statusCode >= 500 || NEVER_KEPT.has(res.statusCode) || (graphql && refusesCaller(text));
      const kept = withoutSecrets(text);
      const done = unitOfWork.run((manager) =>
        forgotten
          ? manager.query("DELETE FROM idempotency_keys WHERE organization_id = $1 AND principal = $2 AND key = $3", scope)
          : manager.query(
              "UPDATE idempotency_keys SET response_status = $4, response_body = $5, response_redacted = $6 WHERE organization_id = $1 AND principal = $2 AND key = $3",
              [...scope, res.statusCode, Buffer.byteLength(kept.text) > MAX_KEPT_ANSWER_BYTES ? null : kept.text, kept.redacted],
            ),
      );
      done.then(
        () => end(body),
        (error) => {
          logger.error({ reqId: req.id, err: error }, "could not record the idempotent answer");
          end(body);
        },
      );
      return res;
    }) as Response["end"];
    next("router");
  };

  router.post("/graphql", (req: Request, res: Response, next: NextFunction) => {
    // The operation the guard found in the request's one tree; only a mutation is kept.
    const operation = (res.locals.graphql as GuardedRequest | undefined)?.operation;
    if (operation?.operation !== "mutation") return next("router");
    const fields = operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD && s.name.value !== "__typename" ? [s.name.value] : []));
    // createOrganization is the platform key's; exchangeToken is anonymous (its answer is a credential) and never kept.
    if (fields.includes("createOrganization")) return keep(fields.length === 1 ? principalFor(res, undefined, "platform") : undefined, req, res, next);
    if (fields.includes("exchangeToken")) return next("router");
    const allowed = fields.every((f) => holdsAny((res.locals.context as RequestContext | undefined)?.actor ?? null, permissionsOf("mutation", f)));
    keep(allowed ? principalFor(res, [], "token") : undefined, req, res, next);
  });
  for (const c of options.compiled.filter((r) => r.route.method === "POST")) {
    router.post(c.expressPath, (req: Request, res: Response, next: NextFunction) => {
      const actor = (res.locals.context as RequestContext | undefined)?.actor;
      // A path naming another organization is a 404 of its own, before anything is kept.
      if (c.pathParams.includes("org") && actor && actor.organizationId !== String(req.params.org).toLowerCase()) return next("router");
      keep(principalFor(res, c.permissions, c.route.auth ?? "token"), req, res, next);
    });
  }
  return router;
}

/** Deletes the keys whose 24 hours are over. */
export function idempotencyKeyPruning(unitOfWork: UnitOfWork): ScheduledJob {
  return {
    name: "idempotency-key-pruning",
    intervalMs: 3_600_000,
    run: async () => {
      const [{ deleted }] = await unitOfWork.run((manager) =>
        manager.query("WITH gone AS (DELETE FROM idempotency_keys WHERE expires_at < now() RETURNING 1) SELECT count(*)::int AS deleted FROM gone"),
      );
      return { deleted };
    },
  };
}
