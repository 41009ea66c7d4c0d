import { randomBytes } from "node:crypto";
import { EntityManager } from "typeorm";
import { Actor } from "../../auth/actor";
import { ServiceDeps } from "../../common/services";
import { requireUuid } from "../../common/ids";
import { Page, PageArgs, timeOrderedPage } from "../../common/pagination";
import { parseTimestamp } from "../../common/time";
import { conflict, invalidField, notFound } from "../../errors/app-error";
import { EVENT_CATALOG, EVENT_RETENTION_DAYS, PING_EVENT_TYPE } from "../events";
import { checkWebhookUrl } from "./webhook-targets";
import {
  attemptRows,
  deleteEndpoint,
  deliveryRows,
  EndpointRow,
  endpointRow,
  endpointRows,
  insertEndpoint,
  insertPing,
  deletePingsBefore,
  insertSecret,
  queueEventsSince,
  retireSecrets,
  updateEndpoint,
} from "./webhook.store";
import { CreateWebhookEndpointInput, RecoverResult, UpdateWebhookEndpointInput, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from "./webhook.types";

/** How long a rotated secret keeps signing next to its successor. */
export const ROTATED_SECRET_VALID_MS = 24 * 3_600_000;

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
    const page = await timeOrderedPage(
      args,
      (count, after) => endpointRows(this.deps.db, actor.organizationId, count, after),
      (r) => [r.created_at, r.id],
    );
    return { nodes: page.nodes.map((r) => toEndpoint(r)), pageInfo: page.pageInfo };
  }

  async get(actor: Actor, id: string, manager: EntityManager | undefined = undefined, lock = false): Promise<WebhookEndpoint> {
    const rows = await endpointRow(manager ?? this.deps.db, actor.organizationId, requireUuid(id, "Webhook endpoint"), lock);
    if (!rows.length) throw notFound("Webhook endpoint");
    return toEndpoint(rows[0]);
  }

  async create(actor: Actor, input: CreateWebhookEndpointInput): Promise<WebhookEndpoint> {
    const url = await checkWebhookUrl(input.url, this.allowPrivate);
    const eventTypes = checkEventTypes(input.eventTypes);
    const secret = newSecret();
    return this.deps.unitOfWork.run(async (manager) => {
      const row = await insertEndpoint(manager, actor.organizationId, url, input.description ?? null, eventTypes, input.enabled ?? true);
      await insertSecret(manager, actor.organizationId, row.id, secret);
      return toEndpoint(row, secret);
    });
  }

  async update(actor: Actor, id: string, input: UpdateWebhookEndpointInput): Promise<WebhookEndpoint> {
    const url = input.url === undefined || input.url === null ? undefined : await checkWebhookUrl(input.url, this.allowPrivate);
    const eventTypes = input.eventTypes === undefined || input.eventTypes === null ? undefined : checkEventTypes(input.eventTypes);
    return this.deps.unitOfWork.run(async (manager) => {
      const current = await this.get(actor, id, manager, true);
      const enabled = input.enabled ?? current.enabled;
      const row = await updateEndpoint(
        manager,
        actor.organizationId,
        current.id,
        {
          url: url ?? current.url,
          eventTypes: eventTypes ?? current.eventTypes,
          description: input.description === undefined ? current.description : input.description,
          enabled,
        },
        this.deps.clock.now(),
      );
      return toEndpoint(row);
    });
  }

  async delete(actor: Actor, id: string): Promise<boolean> {
    const rows = await this.deps.unitOfWork.run((m) => deleteEndpoint(m, actor.organizationId, requireUuid(id, "Webhook endpoint")));
    if (!rows.length) throw notFound("Webhook endpoint");
    return true;
  }

  /** A new secret; the current one keeps signing for 24 hours, so receivers can switch without losing a message. */
  async rotateSecret(actor: Actor, id: string): Promise<WebhookEndpoint> {
    const secret = newSecret();
    return this.deps.unitOfWork.run(async (manager) => {
      const endpoint = await this.get(actor, id, manager, true);
      const now = this.deps.clock.now();
      await retireSecrets(manager, actor.organizationId, endpoint.id, now, new Date(now.getTime() + ROTATED_SECRET_VALID_MS));
      await insertSecret(manager, actor.organizationId, endpoint.id, secret);
      return { ...endpoint, secret };
    });
  }

  async deliveries(actor: Actor, id: string, args: PageArgs): Promise<Page<WebhookDelivery>> {
    const endpoint = await this.get(actor, id);
    const page = await timeOrderedPage(
      args,
      (count, before) => deliveryRows(this.deps.db, actor.organizationId, endpoint.id, count, before),
      (r) => [r.created_at, r.id],
    );
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
    const page = await timeOrderedPage(
      args,
      (count, before) => attemptRows(this.deps.db, actor.organizationId, endpoint.id, count, before),
      (r) => [r.attempted_at, r.id],
    );
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

  /**
   * Queues again every event of the endpoint's types since a time (kept 30 days), whatever became
   * of its earlier deliveries, but for those still waiting to be sent; a disabled endpoint sends
   * nothing, so it is refused.
   */
  async recover(actor: Actor, id: string, since: string): Promise<RecoverResult> {
    const from = parseTimestamp(since, "UTC", "since");
    const endpoint = await this.get(actor, id);
    if (!endpoint.enabled) throw conflict("The endpoint is disabled: enable it (PATCH enabled: true) before recovering its events", "ENDPOINT_DISABLED");
    const queued = await this.deps.unitOfWork.run((manager) => queueEventsSince(manager, actor.organizationId, endpoint.id, from, endpoint.eventTypes));
    return { queued };
  }

  /** Queues a ping (`webhook_endpoint.test`), sent like any event. */
  async test(actor: Actor, id: string): Promise<WebhookDelivery> {
    const endpoint = await this.get(actor, id);
    const row = await this.deps.unitOfWork.run((manager) => insertPing(manager, actor.organizationId, endpoint.id));
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

  /** Forgets pings older than events are kept, with their attempts (an event's deliveries go with the event). */
  async prunePings(): Promise<number> {
    return this.deps.unitOfWork.run((manager) => deletePingsBefore(manager, new Date(this.deps.clock.now().getTime() - EVENT_RETENTION_DAYS * 86_400_000)));
  }

  readonly pingPruning = { name: "prune webhook pings", intervalMs: 3_600_000, run: () => this.prunePings() };
}
