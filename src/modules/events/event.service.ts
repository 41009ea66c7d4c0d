import { EntityManager } from "typeorm";
import { Actor } from "../../auth/actor";
import { ServiceDeps } from "../../common/services";
import { Page, pageSize, toPage } from "../../common/pagination";
import { invalidField } from "../../errors/app-error";
import { EventPresenter } from "./event-presenter";
import { Event } from "./event.types";

/** How long events are kept for integrations to catch up. */
export const EVENT_RETENTION_DAYS = 30;

export interface EventRow {
  id: string;
  organization_id: string;
  sequence: string;
  type: string;
  occurred_at: Date;
  actor: { staffId: string | null; apiKeyId: string | null } | null;
  source_table: string;
  object: Record<string, unknown>;
  /** The resource as its REST GET answered it when the event committed (see src/app/event-snapshots.ts). */
  resource: Record<string, unknown> | null;
  previous_attributes: Record<string, unknown> | null;
}

export const EVENT_COLUMNS = "id, organization_id, sequence, type, occurred_at, actor, source_table, object, resource, previous_attributes";

/**
 * Records an event that is no single row's change (a schedule's publication), in the caller's
 * transaction; row changes are recorded by the database's event trigger.
 */
export async function recordEvent(manager: EntityManager, organizationId: string, type: string, object: Record<string, unknown>): Promise<void> {
  await manager.query("SELECT record_event($1, $2, $3, $4::jsonb, NULL)", [organizationId, type, type.split(".")[0], JSON.stringify(object)]);
}

/** Reads the organization's events in commit order (the database writes them; see the CreateEventsAndWebhooks migration). */
export class EventService {
  readonly presenter: EventPresenter;

  constructor(private readonly deps: ServiceDeps) {
    this.presenter = new EventPresenter(deps.db);
  }

  async list(actor: Actor, args: { first?: number; after?: string; types?: string[] }): Promise<Page<Event>> {
    const limit = pageSize(args.first);
    const params: unknown[] = [actor.organizationId, 0, limit + 1];
    if (args.after !== undefined && args.after !== null) {
      if (!/^\d{1,15}$/.test(args.after)) throw invalidField("after", "after is the sequence number of the last event read");
      params[1] = args.after;
    }
    let types = "";
    if (args.types?.length) {
      params.push(args.types);
      types = " AND type = ANY($4::text[])";
    }
    // The feed may lag a few seconds (a client's own writes excepted): a replica answers when one is healthy.
    const rows: EventRow[] = await (await this.deps.reads.readerFor(actor)).query(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE organization_id = $1 AND sequence > $2${types} ORDER BY sequence LIMIT $3`,
      params,
    );
    const page = toPage(rows, limit, () => []);
    const last = page.nodes[page.nodes.length - 1];
    return { nodes: page.nodes.map((r) => this.present(r)), pageInfo: { hasNextPage: page.pageInfo.hasNextPage, endCursor: last ? last.sequence : null } };
  }

  async byIds(organizationId: string, ids: string[]): Promise<Event[]> {
    const rows: EventRow[] = await this.deps.db.query(`SELECT ${EVENT_COLUMNS} FROM events WHERE organization_id = $1 AND id = ANY($2::uuid[]) ORDER BY sequence`, [
      organizationId,
      ids,
    ]);
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
    const [{ n }] = await this.deps.db.query("WITH gone AS (DELETE FROM events WHERE occurred_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone", [before]);
    return n;
  }

  readonly job = { name: "prune events", intervalMs: 3_600_000, run: () => this.prune() };
}
