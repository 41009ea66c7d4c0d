import { EntityManager } from "typeorm";
import type { Queryable } from "../../database/queryable";
import { updateReturning } from "../../database/returning";

/** The SQL of webhook endpoints, their secrets, deliveries and attempts, as managers see them. */

export interface EndpointRow {
  id: string;
  organization_id: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  id: string;
  event_id: string | null;
  type: string | null;
  status: string;
  attempts: number;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  last_response: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
}

export interface AttemptRow {
  id: string;
  delivery_id: string;
  event_id: string | null;
  type: string | null;
  attempt: number;
  status: string;
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response: string | null;
  next_attempt_at: Date | null;
}

/** Where a page starts: the (timestamp, id) of the last row of the previous page. */
export type PagePosition = [string | number, string];

const ENDPOINT_COLUMNS = "id, organization_id, url, description, event_types, enabled, disabled_reason, created_at, updated_at";

/** Up to `take` endpoints in creation order, after `position` when given. */
export function endpointRows(db: Queryable, organizationId: string, take: number, position?: PagePosition): Promise<EndpointRow[]> {
  const params: unknown[] = [organizationId, take];
  let after = "";
  if (position) {
    params.push(...position);
    after = " AND (created_at, id) > ($3::timestamptz, $4::uuid)";
  }
  return db.query(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE organization_id = $1${after} ORDER BY created_at, id LIMIT $2`, params);
}

/** The endpoint (none or one row), locked until commit when `lock`. */
export function endpointRow(db: Queryable, organizationId: string, id: string, lock: boolean): Promise<EndpointRow[]> {
  return db.query(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE organization_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`, [organizationId, id]);
}

export async function insertEndpoint(
  manager: EntityManager,
  organizationId: string,
  url: string,
  description: string | null,
  eventTypes: string[],
  enabled: boolean,
): Promise<EndpointRow> {
  const [row]: EndpointRow[] = await manager.query(
    `INSERT INTO webhook_endpoints (organization_id, url, description, event_types, enabled) VALUES ($1, $2, $3, $4, $5) RETURNING ${ENDPOINT_COLUMNS}`,
    [organizationId, url, description, eventTypes, enabled],
  );
  return row;
}

export async function insertSecret(manager: EntityManager, organizationId: string, endpointId: string, secret: string): Promise<void> {
  await manager.query("INSERT INTO webhook_endpoint_secrets (organization_id, endpoint_id, secret) VALUES ($1, $2, $3)", [organizationId, endpointId, secret]);
}

/** Writes the endpoint's fields; disabling by hand records why, enabling clears the reason and the failing streak. */
export async function updateEndpoint(
  manager: EntityManager,
  organizationId: string,
  id: string,
  fields: { url: string; eventTypes: string[]; description: string | null; enabled: boolean },
  now: Date,
): Promise<EndpointRow> {
  const [row] = await updateReturning<EndpointRow>(
    manager,
    `UPDATE webhook_endpoints
        SET url = $3, event_types = $4, description = $5, enabled = $6, updated_at = $7,
            disabled_reason = CASE WHEN $6 THEN NULL WHEN enabled THEN 'disabled by a manager' ELSE disabled_reason END,
            failing_since = CASE WHEN $6 AND NOT enabled THEN NULL ELSE failing_since END
      WHERE organization_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
    [organizationId, id, fields.url, fields.eventTypes, fields.description, fields.enabled, now],
  );
  return row;
}

/** Removes the endpoint; the ids removed (none when there was no such endpoint). */
export function deleteEndpoint(manager: EntityManager, organizationId: string, id: string): Promise<unknown[]> {
  return updateReturning(manager, "DELETE FROM webhook_endpoints WHERE organization_id = $1 AND id = $2 RETURNING id", [organizationId, id]);
}

/** Drops the secrets expired by `now` and gives the current one `expiresAt`, before a new one is stored. */
export async function retireSecrets(manager: EntityManager, organizationId: string, endpointId: string, now: Date, expiresAt: Date): Promise<void> {
  await manager.query("DELETE FROM webhook_endpoint_secrets WHERE organization_id = $1 AND endpoint_id = $2 AND expires_at <= $3", [
    organizationId,
    endpointId,
    now,
  ]);
  await manager.query("UPDATE webhook_endpoint_secrets SET expires_at = $3 WHERE organization_id = $1 AND endpoint_id = $2 AND expires_at IS NULL", [
    organizationId,
    endpointId,
    expiresAt,
  ]);
}

/** Up to `take` deliveries of the endpoint, newest first, before `position` when given. */
export function deliveryRows(db: Queryable, organizationId: string, endpointId: string, take: number, position?: PagePosition): Promise<DeliveryRow[]> {
  const params: unknown[] = [organizationId, endpointId, take];
  let after = "";
  if (position) {
    params.push(...position);
    after = " AND (d.created_at, d.id) < ($4::timestamptz, $5::uuid)";
  }
  return db.query(
    `SELECT d.id, d.event_id, e.type, d.status, d.attempts, d.last_attempt_at, d.last_status_code, d.last_duration_ms, d.last_error, d.last_response,
            nullif(d.next_attempt_at, '-infinity') AS next_attempt_at, d.created_at
       FROM webhook_deliveries d LEFT JOIN events e ON e.id = d.event_id
      WHERE d.organization_id = $1 AND d.endpoint_id = $2${after}
      ORDER BY d.created_at DESC, d.id DESC LIMIT $3`,
    params,
  );
}

/** Up to `take` attempts to deliver to the endpoint, newest first, before `position` when given. */
export function attemptRows(db: Queryable, organizationId: string, endpointId: string, take: number, position?: PagePosition): Promise<AttemptRow[]> {
  const params: unknown[] = [organizationId, endpointId, take];
  let after = "";
  if (position) {
    params.push(...position);
    after = " AND (a.attempted_at, a.id) < ($4::timestamptz, $5::uuid)";
  }
  return db.query(
    `SELECT a.id, a.delivery_id, d.event_id, e.type, a.attempt, a.status, a.attempted_at, a.status_code, a.duration_ms, a.error, a.response, a.next_attempt_at
       FROM webhook_attempts a
       JOIN webhook_deliveries d ON d.id = a.delivery_id
       LEFT JOIN events e ON e.id = d.event_id
      WHERE a.organization_id = $1 AND a.endpoint_id = $2${after}
      ORDER BY a.attempted_at DESC, a.id DESC LIMIT $3`,
    params,
  );
}

/**
 * Queues a delivery to the endpoint of every event since `from` of the given types (all when none),
 * but for those already waiting for it (the unique index of pending deliveries decides); how many.
 */
export async function queueEventsSince(manager: EntityManager, organizationId: string, endpointId: string, from: Date, eventTypes: string[]): Promise<number> {
  const [{ queued }] = await manager.query(
    `WITH queued AS (
       INSERT INTO webhook_deliveries (organization_id, endpoint_id, event_id)
       SELECT organization_id, $2, id FROM events
        WHERE organization_id = $1 AND occurred_at >= $3 AND (cardinality($4::text[]) = 0 OR type = ANY ($4::text[]))
        ORDER BY sequence
       ON CONFLICT (organization_id, endpoint_id, event_id) WHERE status = 'pending' AND event_id IS NOT NULL DO NOTHING
       RETURNING 1)
     SELECT count(*)::int AS queued FROM queued`,
    [organizationId, endpointId, from, eventTypes],
  );
  return queued;
}

/** Forgets pings (deliveries without an event) queued before `before`, with their attempts; how many. */
export async function deletePingsBefore(manager: EntityManager, before: Date): Promise<number> {
  const [{ n }] = await manager.query(
    "WITH gone AS (DELETE FROM webhook_deliveries WHERE event_id IS NULL AND created_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone",
    [before],
  );
  return n;
}

/** Queues a delivery without an event (a ping). */
export async function insertPing(manager: EntityManager, organizationId: string, endpointId: string): Promise<{ id: string; created_at: Date }> {
  const [row] = await manager.query("INSERT INTO webhook_deliveries (organization_id, endpoint_id) VALUES ($1, $2) RETURNING id, created_at", [
    organizationId,
    endpointId,
  ]);
  return row;
}

/* Sending: claims, targets and outcomes, as the dispatcher records them across organizations. */

/** A delivery claimed for one attempt. */
export interface Claimed {
  id: string;
  organization_id: string;
  endpoint_id: string;
  event_id: string | null;
  attempts: number;
}

/** Where and how a claimed delivery is sent. */
export interface Target {
  id: string;
  url: string;
  secrets: string[] | null;
  /** The endpoint was failing when its deliveries were claimed: a success clears that. */
  failing: boolean;
}

/** What one attempt ended with, recorded under its claim's lease token. */
export interface OutcomeRecord {
  id: string;
  token: string;
  status: "pending" | "delivered" | "failed";
  nextAttemptAt: Date;
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  response: string | null;
}

/** Whether any delivery is due by `now`: one indexed read, cheaper than a claim's transaction when there is none (the idle poll). */
export async function anyDeliveryDue(db: Queryable, now: Date): Promise<boolean> {
  const [row]: { due: boolean }[] = await db.query(
    "SELECT EXISTS (SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $1) AS due",
    [now],
  );
  return row.due;
}

/**
 * Claims up to `room` due deliveries of enabled endpoints under `token` until `leaseUntil`, at most
 * `perEndpoint` less what `busy` already holds per endpoint. One statement, atomic by itself.
 */
export function claimDeliveries(
  manager: EntityManager,
  now: Date,
  room: number,
  leaseUntil: Date,
  token: string,
  perEndpoint: number,
  busy: [string, number][],
): Promise<Claimed[]> {
  return updateReturning<Claimed>(
    manager,
    `WITH candidates AS (
       SELECT d.id, d.endpoint_id FROM webhook_deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= $1
          AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.organization_id = d.organization_id AND e.id = d.endpoint_id AND e.enabled)
        ORDER BY d.next_attempt_at
        LIMIT $2
        FOR UPDATE OF d SKIP LOCKED
     ), ranked AS (
       SELECT c.id, c.endpoint_id, row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.id) AS n FROM candidates c
     )
     UPDATE webhook_deliveries d SET next_attempt_at = $3, lease_token = $4, attempts = d.attempts + 1
       FROM ranked r
      WHERE d.id = r.id AND r.n <= $5 - COALESCE((SELECT f.n FROM unnest($6::uuid[], $7::int[]) AS f(e, n) WHERE f.e = r.endpoint_id), 0)
     RETURNING d.id, d.organization_id, d.endpoint_id, d.event_id, d.attempts`,
    [now, room, leaseUntil, token, perEndpoint, busy.map(([e]) => e), busy.map(([, n]) => n)],
  );
}

/** Hands claimed deliveries that were never attempted back, due at once and with the attempt uncounted. */
export async function releaseClaims(manager: EntityManager, claims: { id: string; token: string }[]): Promise<void> {
  await manager.query(
    `UPDATE webhook_deliveries d SET next_attempt_at = '-infinity', lease_token = NULL, attempts = d.attempts - 1
       FROM unnest($1::uuid[], $2::uuid[]) AS u(id, token) WHERE d.id = u.id AND d.lease_token = u.token`,
    [claims.map((d) => d.id), claims.map((d) => d.token)],
  );
}

/** The endpoints' addresses, whether they were failing, and their secrets still valid at `now`, newest first. */
export function targetRows(db: Queryable, endpointIds: string[], now: Date): Promise<Target[]> {
  return db.query(
    `SELECT e.id, e.url, e.failing_since IS NOT NULL AS failing,
            array_agg(s.secret ORDER BY s.created_at DESC) FILTER (WHERE s.expires_at IS NULL OR s.expires_at > $2) AS secrets
       FROM webhook_endpoints e LEFT JOIN webhook_endpoint_secrets s ON s.organization_id = e.organization_id AND s.endpoint_id = e.id
      WHERE e.id = ANY($1::uuid[]) GROUP BY e.id, e.url, e.failing_since`,
    [endpointIds, now],
  );
}

export async function clearFailing(manager: EntityManager, endpointIds: string[]): Promise<void> {
  await manager.query("UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ANY($1::uuid[]) AND failing_since IS NOT NULL", [endpointIds]);
}

/** Marks the endpoints failing since `now` where they were not yet. */
export async function markFailing(manager: EntityManager, endpointIds: string[], now: Date): Promise<void> {
  await manager.query("UPDATE webhook_endpoints SET failing_since = $2 WHERE id = ANY($1::uuid[]) AND failing_since IS NULL", [endpointIds, now]);
}

/** Disables the endpoints failing since `failingBy` or earlier. */
export async function disableLongFailing(manager: EntityManager, endpointIds: string[], now: Date, failingBy: Date): Promise<void> {
  await manager.query(
    "UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'failing for 5 days', updated_at = $2 WHERE id = ANY($1::uuid[]) AND enabled AND failing_since <= $3",
    [endpointIds, now, failingBy],
  );
}

export async function disableGone(manager: EntityManager, endpointIds: string[], now: Date): Promise<void> {
  await manager.query(
    "UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'the receiver answered 410 Gone', updated_at = $2 WHERE id = ANY($1::uuid[]) AND enabled",
    [endpointIds, now],
  );
}

/** The delivery's state and its attempt's record in one statement, both only under the claim's lease. */
export async function recordOutcomes(manager: EntityManager, batch: OutcomeRecord[]): Promise<void> {
  await manager.query(
    `WITH o AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::int[], $7::int[], $8::text[], $9::text[])
                  AS o(id, token, status, next_at, at, code, ms, error, response)
     ), recorded AS (
       UPDATE webhook_deliveries d
          SET status = o.status, next_attempt_at = o.next_at, last_attempt_at = o.at, last_status_code = o.code, last_duration_ms = o.ms,
              last_error = o.error, last_response = o.response, lease_token = NULL
         FROM o
        WHERE d.id = o.id AND d.lease_token = o.token
       RETURNING d.id, d.organization_id, d.endpoint_id, d.attempts
     )
     INSERT INTO webhook_attempts (organization_id, endpoint_id, delivery_id, attempt, status, attempted_at, status_code, duration_ms, error, response, next_attempt_at)
     SELECT r.organization_id, r.endpoint_id, r.id, r.attempts, o.status, o.at, o.code, o.ms, o.error, o.response, CASE WHEN o.status = 'pending' THEN o.next_at END
       FROM recorded r JOIN o ON o.id = r.id`,
    [
      batch.map((o) => o.id),
      batch.map((o) => o.token),
      batch.map((o) => o.status),
      batch.map((o) => o.nextAttemptAt),
      batch.map((o) => o.at),
      batch.map((o) => o.statusCode),
      batch.map((o) => o.durationMs),
      batch.map((o) => o.error),
      batch.map((o) => o.response),
    ],
  );
}
