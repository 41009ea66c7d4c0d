import { EntityManager } from "typeorm";
import { Actor } from "../../auth/actor";
import { ServiceDeps } from "../../common/services";
import { Page, pageSize, toPage } from "../../common/pagination";
import { invalidField } from "../../errors/app-error";
import { EventPresenter } from "./event-presenter";
import { deleteEventsBefore, EventRow, eventRowsAfter, eventRowsByIds, eventRowsForDelivery, insertEvent } from "./event.store";
import { requireKnownEventTypes } from "./event-catalog";
import { Event } from "./event.types";

/** How long events are kept for integrations to catch up. */
export const EVENT_RETENTION_DAYS = 30;

/**
 * Records an event that is no single row's change (a schedule's publication), in the caller's
 * transaction; row changes are recorded by the database's event trigger.
 */
export function recordEvent(manager: EntityManager, organizationId: string, type: string, object: Record<string, unknown>): Promise<void> {
  return insertEvent(manager, organizationId, type, object);
}

/** Reads the organization's events in commit order (the database writes them; see the CreateEventsAndWebhooks migration). */
export class EventService {
  readonly presenter: EventPresenter;

  constructor(private readonly deps: ServiceDeps) {
    this.presenter = new EventPresenter(deps.db);
  }

  async list(actor: Actor, args: { first?: number; after?: string; types?: string[] }): Promise<Page<Event>> {
    const limit = pageSize(args.first);
    let after: string | number = 0;
    if (args.after !== undefined && args.after !== null) {
      if (!/^\d{1,15}$/.test(args.after)) throw invalidField("after", "after is the sequence number of the last event read");
      after = args.after;
    }
    requireKnownEventTypes(args.types);
    // The feed may lag a few seconds (a client's own writes excepted): a replica answers when one is healthy.
    const rows = await eventRowsAfter(await this.deps.reads.readerFor(actor), actor.organizationId, after, limit + 1, args.types);
    const page = toPage(rows, limit, () => []);
    const last = page.nodes[page.nodes.length - 1];
    return { nodes: page.nodes.map((r) => this.present(r)), pageInfo: { hasNextPage: page.pageInfo.hasNextPage, endCursor: last ? last.sequence : null } };
  }

  async byIds(organizationId: string, ids: string[]): Promise<Event[]> {
    const rows = await eventRowsByIds(this.deps.db, organizationId, ids);
    return rows.map((r) => this.present(r));
  }

  /** Events by id whatever their organization, as delivered: the webhook deliveries already tied to them. */
  async forDelivery(ids: string[]): Promise<Event[]> {
    const rows = await eventRowsForDelivery(this.deps.db, ids);
    return rows.map((r) => this.present(r));
  }

  present(row: EventRow): Event {
    const object = row.resource ?? this.presenter.present(row.source_table, row.object)!;
    // With the resource read, the old values were written in its terms too (src/app/event-snapshots.ts).
    const previousAttributes = row.resource ? (row.previous_attributes ?? undefined) : this.presenter.present(row.source_table, row.previous_attributes);
    return {
      id: row.id,
      type: row.type,
      occurredAt: row.occurred_at,
      organizationId: row.organization_id,
      actor: row.actor ? { staffId: row.actor.staffId ?? null, apiKeyId: row.actor.apiKeyId ?? null } : null,
      sequence: Number(row.sequence),
      data: { object, ...(previousAttributes ? { previousAttributes } : {}) },
    };
  }

  /** Forgets events older than the retention (their deliveries go with them). */
  async prune(): Promise<number> {
    const before = new Date(this.deps.clock.now().getTime() - EVENT_RETENTION_DAYS * 86_400_000);
    return this.deps.unitOfWork.run((manager) => deleteEventsBefore(manager, before));
  }

  readonly job = { name: "prune events", intervalMs: 3_600_000, run: () => this.prune() };
}
