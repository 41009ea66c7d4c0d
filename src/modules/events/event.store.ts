import { EntityManager } from "typeorm";
import type { Queryable } from "../../database/queryable";

/** The SQL of the event log: the database writes events (see the CreateEventsAndWebhooks migration); this reads and prunes them. */

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

const EVENT_COLUMNS = "id, organization_id, sequence, type, occurred_at, actor, source_table, object, resource, previous_attributes";

/** Appends an event of no single row's change through the database's `record_event`, in the caller's transaction. */
export async function insertEvent(manager: EntityManager, organizationId: string, type: string, object: Record<string, unknown>): Promise<void> {
  await manager.query("SELECT record_event($1, $2, $3, $4::jsonb, NULL)", [organizationId, type, type.split(".")[0], JSON.stringify(object)]);
}

/** An event recorded by the transaction still running, not yet numbered (`sequence` is set at commit). */
export type PendingEvent = Pick<EventRow, "id" | "organization_id" | "type" | "source_table" | "object" | "previous_attributes">;

/** The events this transaction recorded so far, in the order recorded (`record_event` lists their ids in `app.pending_events`). */
export function selectPendingEvents(manager: EntityManager): Promise<PendingEvent[]> {
  // One statement: every unit of work asks this before it commits, most of them with no event to render.
  // The list is ids each followed by a space; trimmed, it splits into ids only (an empty setting into none).
  return manager.query(
    `SELECT e.id, e.organization_id, e.type, e.source_table, e.object, e.previous_attributes
       FROM unnest(string_to_array(btrim(current_setting('app.pending_events', true)), ' ')) WITH ORDINALITY AS p (id, position)
       JOIN events e ON e.id = p.id::uuid
      ORDER BY p.position`,
  );
}

/** The resource's last committed rendering (this transaction's events are numbered only at its commit). */
export async function selectLastCommittedResource(manager: EntityManager, organizationId: string, key: string): Promise<Record<string, unknown> | undefined> {
  const [previous] = await manager.query(
    "SELECT resource FROM events WHERE organization_id = $1 AND resource_key = $2 AND sequence IS NOT NULL AND resource IS NOT NULL ORDER BY sequence DESC LIMIT 1",
    [organizationId, key],
  );
  return previous?.resource;
}

/** An event's resource as its REST GET answered it (`key` names the resource), with the changed fields' old values. */
export interface EventResource {
  key: string;
  value: Record<string, unknown>;
  previous: Record<string, unknown> | null;
}

export async function updateEventResource(manager: EntityManager, id: string, resource: EventResource): Promise<void> {
  await manager.query("UPDATE events SET resource = $2, resource_key = $3, previous_attributes = $4 WHERE id = $1", [
    id,
    JSON.stringify(resource.value),
    resource.key,
    resource.previous === null ? null : JSON.stringify(resource.previous),
  ]);
}

/** Up to `take` events after sequence `after` in commit order, of the given types when any. */
export function eventRowsAfter(
  reader: Queryable,
  organizationId: string,
  after: string | number,
  take: number,
  types: string[] | undefined,
): Promise<EventRow[]> {
  const params: unknown[] = [organizationId, after, take];
  let typeFilter = "";
  if (types?.length) {
    params.push(types);
    typeFilter = " AND type = ANY($4::text[])";
  }
  return reader.query(`SELECT ${EVENT_COLUMNS} FROM events WHERE organization_id = $1 AND sequence > $2${typeFilter} ORDER BY sequence LIMIT $3`, params);
}

/** The organization's events with these ids, in commit order. */
export function eventRowsByIds(db: Queryable, organizationId: string, ids: string[]): Promise<EventRow[]> {
  return db.query(`SELECT ${EVENT_COLUMNS} FROM events WHERE organization_id = $1 AND id = ANY($2::uuid[]) ORDER BY sequence`, [organizationId, ids]);
}

/** Events by id whatever their organization, for sending deliveries already tied to them. */
export function eventRowsForDelivery(db: Queryable, ids: string[]): Promise<EventRow[]> {
  return db.query(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = ANY($1::uuid[])`, [ids]);
}

/** Deletes the events older than `before`; how many. */
export async function deleteEventsBefore(manager: EntityManager, before: Date): Promise<number> {
  const [{ n }] = await manager.query("WITH gone AS (DELETE FROM events WHERE occurred_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone", [before]);
  return n;
}
