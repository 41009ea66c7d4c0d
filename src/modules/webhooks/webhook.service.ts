import { randomBytes } from "node:crypto";
import { EntityManager } from "typeorm";
import { Actor } from "../../auth/actor";
import { ServiceDeps } from "../../common/services";
import { requireUuid } from "../../common/ids";
import { decodeCursor, Page, PageArgs, pageSize, toPage } from "../../common/pagination";
import { parseTimestamp } from "../../common/time";
import { inTransaction } from "../../database/transaction";
import { invalidField, notFound } from "../../errors/app-error";
import { EVENT_CATALOG, PING_EVENT_TYPE } from "../events/event-catalog";
import { updateReturning } from "../../database/returning";
import { checkWebhookUrl } from "./webhook-targets";
import {
  CreateWebhookEndpointInput,
  RecoverResult,
  UpdateWebhookEndpointInput,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
} from "./webhook.types";

/** How long a rotated secret keeps signing next to its successor. */
export const ROTATED_SECRET_VALID_MS = 24 * 3_600_000;

interface EndpointRow {
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

const ENDPOINT_COLUMNS = "id, organization_id, url, description, event_types, enabled, disabled_reason, created_at, updated_at";

function toEndpoint(r: EndpointRow, secret?: string): WebhookEndpoint {
  return {
    id: r.id,
    organizationId: r.organization_id,
    url: r.url,
    description: r.description,
    eventTypes: r.event_types,
    enabled: r.enabled,
    disabledReason: r.disabled_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    secret: secret ?? null,
  };
}

function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

function checkEventTypes(types: string[] | undefined): string[] {
  const unknown = (types ?? []).filter((t) => !(t in EVENT_CATALOG));
  if (unknown.length) throw invalidField("eventTypes", `Unknown event types: ${unknown.join(", ")} (the catalog is in docs/events.md)`);
  return [...new Set(types ?? [])];
}

/** Webhook endpoints, their secrets and their deliveries; sending is the WebhookDispatcher's. */
export class WebhookService {
  constructor(private readonly deps: ServiceDeps) {}

  private get allowPrivate(): boolean {
    return this.deps.config.webhooks.allowPrivateTargets;
  }

  async list(actor: Actor, args: PageArgs): Promise<Page<WebhookEndpoint>> {
    const limit = pageSize(args.first);
    const params: unknown[] = [actor.organizationId, limit + 1];
    let after = "";
    if (args.after) {
      const [at, id] = decodeCursor(args.after, "timestamp");
      params.push(at, id);
      after = " AND (created_at, id) > ($3::timestamptz, $4::uuid)";
    }
    const rows: EndpointRow[] = await this.deps.db.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE organization_id = $1${after} ORDER BY created_at, id LIMIT $2`,
      params,
    );
    const page = toPage(rows, limit, (r) => [r.created_at.toISOString(), r.id]);
    return { nodes: page.nodes.map((r) => toEndpoint(r)), pageInfo: page.pageInfo };
  }

  async get(actor: Actor, id: string, manager: EntityManager | undefined = undefined, lock = false): Promise<WebhookEndpoint> {
    const rows: EndpointRow[] = await (manager ?? this.deps.db).query(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE organization_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`,
      [actor.organizationId, requireUuid(id, "Webhook endpoint")],
    );
    if (!rows.length) throw notFound("Webhook endpoint");
    return toEndpoint(rows[0]);
  }

  async create(actor: Actor, input: CreateWebhookEndpointInput): Promise<WebhookEndpoint> {
    const url = await checkWebhookUrl(input.url, this.allowPrivate);
    const eventTypes = checkEventTypes(input.eventTypes);
    const secret = newSecret();
    return inTransaction(this.deps.db, async (manager) => {
      const [row]: EndpointRow[] = await manager.query(
        `INSERT INTO webhook_endpoints (organization_id, url, description, event_types, enabled) VALUES ($1, $2, $3, $4, $5) RETURNING ${ENDPOINT_COLUMNS}`,
        [actor.organizationId, url, input.description ?? null, eventTypes, input.enabled ?? true],
      );
      await manager.query("INSERT INTO webhook_endpoint_secrets (organization_id, endpoint_id, secret) VALUES ($1, $2, $3)", [actor.organizationId, row.id, secret]);
      return toEndpoint(row, secret);
    });
  }

  async update(actor: Actor, id: string, input: UpdateWebhookEndpointInput): Promise<WebhookEndpoint> {
    const url = input.url === undefined || input.url === null ? undefined : await checkWebhookUrl(input.url, this.allowPrivate);
    const eventTypes = input.eventTypes === undefined || input.eventTypes === null ? undefined : checkEventTypes(input.eventTypes);
    return inTransaction(this.deps.db, async (manager) => {
      const current = await this.get(actor, id, manager, true);
      const enabled = input.enabled ?? current.enabled;
      const [row] = await updateReturning<EndpointRow>(
        manager,
        `UPDATE webhook_endpoints
            SET url = $3, event_types = $4, description = $5, enabled = $6, updated_at = $7,
                disabled_reason = CASE WHEN $6 THEN NULL WHEN enabled THEN 'disabled by a manager' ELSE disabled_reason END,
                failing_since = CASE WHEN $6 AND NOT enabled THEN NULL ELSE failing_since END
          WHERE organization_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
        [
          actor.organizationId,
          current.id,
          url ?? current.url,
          eventTypes ?? current.eventTypes,
          input.description === undefined ? current.description : input.description,
          enabled,
          this.deps.clock.now(),
        ],
      );
      return toEndpoint(row);
    });
  }

  async delete(actor: Actor, id: string): Promise<boolean> {
    const rows = await inTransaction(this.deps.db, (m) =>
      updateReturning(m, "DELETE FROM webhook_endpoints WHERE organization_id = $1 AND id = $2 RETURNING id", [actor.organizationId, requireUuid(id, "Webhook endpoint")]),
    );
    if (!rows.length) throw notFound("Webhook endpoint");
    return true;
  }

  /** A new secret; the current one keeps signing for 24 hours, so receivers can switch without losing a message. */
  async rotateSecret(actor: Actor, id: string): Promise<WebhookEndpoint> {
    const secret = newSecret();
    return inTransaction(this.deps.db, async (manager) => {
      const endpoint = await this.get(actor, id, manager, true);
      const now = this.deps.clock.now();
      await manager.query("DELETE FROM webhook_endpoint_secrets WHERE organization_id = $1 AND endpoint_id = $2 AND expires_at <= $3", [
        actor.organizationId,
        endpoint.id,
        now,
      ]);
      await manager.query("UPDATE webhook_endpoint_secrets SET expires_at = $3 WHERE organization_id = $1 AND endpoint_id = $2 AND expires_at IS NULL", [
        actor.organizationId,
        endpoint.id,
        new Date(now.getTime() + ROTATED_SECRET_VALID_MS),
      ]);
      await manager.query("INSERT INTO webhook_endpoint_secrets (organization_id, endpoint_id, secret) VALUES ($1, $2, $3)", [actor.organizationId, endpoint.id, secret]);
      return { ...endpoint, secret };
    });
  }

  async deliveries(actor: Actor, id: string, args: PageArgs): Promise<Page<WebhookDelivery>> {
    const endpoint = await this.get(actor, id);
    const limit = pageSize(args.first);
    const params: unknown[] = [actor.organizationId, endpoint.id, limit + 1];
    let after = "";
    if (args.after) {
      const [at, deliveryId] = decodeCursor(args.after, "timestamp");
      params.push(at, deliveryId);
      after = " AND (d.created_at, d.id) < ($4::timestamptz, $5::uuid)";
    }
    const rows: {
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
    }[] = await this.deps.db.query(
      `SELECT d.id, d.event_id, e.type, d.status, d.attempts, d.last_attempt_at, d.last_status_code, d.last_duration_ms, d.last_error, d.last_response,
              nullif(d.next_attempt_at, '-infinity') AS next_attempt_at, d.created_at
         FROM webhook_deliveries d LEFT JOIN events e ON e.id = d.event_id
        WHERE d.organization_id = $1 AND d.endpoint_id = $2${after}
        ORDER BY d.created_at DESC, d.id DESC LIMIT $3`,
      params,
    );
    const page = toPage(rows, limit, (r) => [r.created_at.toISOString(), r.id]);
    return {
      pageInfo: page.pageInfo,
      nodes: page.nodes.map((r) => ({
        id: r.id,
        eventId: r.event_id,
        eventType: r.type ?? PING_EVENT_TYPE,
        status: r.status,
        attempts: r.attempts,
        lastAttemptAt: r.last_attempt_at,
        statusCode: r.last_status_code,
        durationMs: r.last_duration_ms,
        error: r.last_error,
        response: r.last_response,
        nextAttemptAt: r.status === "pending" ? r.next_attempt_at : null,
        createdAt: r.created_at,
      })),
    };
  }

  /** Every attempt to deliver to the endpoint, newest first. */
  async attempts(actor: Actor, id: string, args: PageArgs): Promise<Page<WebhookAttempt>> {
    const endpoint = await this.get(actor, id);
    const limit = pageSize(args.first);
    const params: unknown[] = [actor.organizationId, endpoint.id, limit + 1];
    let after = "";
    if (args.after) {
      const [at, attemptId] = decodeCursor(args.after, "timestamp");
      params.push(at, attemptId);
      after = " AND (a.attempted_at, a.id) < ($4::timestamptz, $5::uuid)";
    }
    const rows: {
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
    }[] = await this.deps.db.query(
      `SELECT a.id, a.delivery_id, d.event_id, e.type, a.attempt, a.status, a.attempted_at, a.status_code, a.duration_ms, a.error, a.response, a.next_attempt_at
         FROM webhook_attempts a
         JOIN webhook_deliveries d ON d.id = a.delivery_id
         LEFT JOIN events e ON e.id = d.event_id
        WHERE a.organization_id = $1 AND a.endpoint_id = $2${after}
        ORDER BY a.attempted_at DESC, a.id DESC LIMIT $3`,
      params,
    );
    const page = toPage(rows, limit, (r) => [r.attempted_at.toISOString(), r.id]);
    return {
      pageInfo: page.pageInfo,
      nodes: page.nodes.map((r) => ({
        id: r.id,
        deliveryId: r.delivery_id,
        eventId: r.event_id,
        eventType: r.type ?? PING_EVENT_TYPE,
        attempt: r.attempt,
        status: r.status,
        attemptedAt: r.attempted_at,
        statusCode: r.status_code,
        durationMs: r.duration_ms,
        error: r.error,
        response: r.response,
        nextAttemptAt: r.next_attempt_at,
      })),
    };
  }

  /** Queues again every event of the endpoint's types since a time (kept 30 days), whatever became of its earlier deliveries. */
  async recover(actor: Actor, id: string, since: string): Promise<RecoverResult> {
    const from = parseTimestamp(since, "UTC", "since");
    const endpoint = await this.get(actor, id);
    const [{ queued }] = await this.deps.db.query(
      `WITH queued AS (
         INSERT INTO webhook_deliveries (organization_id, endpoint_id, event_id)
         SELECT organization_id, $2, id FROM events
          WHERE organization_id = $1 AND occurred_at >= $3 AND (cardinality($4::text[]) = 0 OR type = ANY ($4::text[]))
          ORDER BY sequence
         RETURNING 1)
       SELECT count(*)::int AS queued FROM queued`,
      [actor.organizationId, endpoint.id, from, endpoint.eventTypes],
    );
    return { queued };
  }

  /** Queues a ping (`webhook_endpoint.test`), sent like any event. */
  async test(actor: Actor, id: string): Promise<WebhookDelivery> {
    const endpoint = await this.get(actor, id);
    const [row] = await this.deps.db.query("INSERT INTO webhook_deliveries (organization_id, endpoint_id) VALUES ($1, $2) RETURNING id, created_at", [
      actor.organizationId,
      endpoint.id,
    ]);
    return {
      id: row.id,
      eventId: null,
      eventType: PING_EVENT_TYPE,
      status: "pending",
      attempts: 0,
      lastAttemptAt: null,
      statusCode: null,
      durationMs: null,
      error: null,
      response: null,
      nextAttemptAt: null,
      createdAt: row.created_at,
    };
  }
}
