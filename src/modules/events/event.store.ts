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
  // The setting's name is a parameter so that the statement is prepared (src/database/prepared-statements.ts):
  // parsed once per connection, where a text without parameters is sent unnamed and parsed and planned at every
  // commit. PostgreSQL still plans it most times, as a custom plan that knows the setting's value.
  return manager.query(
    `SELECT e.id, e.organization_id, e.type, e.source_table, e.object, e.previous_attributes
       FROM unnest(string_to_array(btrim(current_setting($1, true)), ' ')) WITH ORDINALITY AS p (id, position)
       JOIN events e ON e.id = p.id::uuid
      ORDER BY p.position`,
    ["app.pending_events"],
  );
}

/** Each (organization, resource key)'s last committed rendering, by `${organizationId} ${key}`: one statement for all. */
export async function selectLastCommittedResources(
  manager: EntityManager,
  resources: readonly { organizationId: string; key: string }[],
): Promise<Map<string, Record<string, unknown>>> {
  if (!resources.length) return new Map();
  const rows: { organization_id: string; key: string; resource: Record<string, unknown> }[] = await manager.query(
    `SELECT k.organization_id, k.key, r.resource FROM unnest($1::uuid[], $2::text[]) AS k(organization_id, key)
       CROSS JOIN LATERAL (SELECT resource FROM events
                            WHERE organization_id = k.organization_id AND resource_key = k.key AND sequence IS NOT NULL AND resource IS NOT NULL
                            ORDER BY sequence DESC LIMIT 1) r`,
    [resources.map((r) => r.organizationId), resources.map((r) => r.key)],
  );
  return new Map(rows.map((r) => [`${r.organization_id} ${r.key}`, r.resource]));
}

/** An event's resource as its REST GET answered it (`key` names the resource), with the changed fields' old values. */
export interface EventResource {
  key: string;
  value: Record<string, unknown>;
  previous: Record<string, unknown> | null;
}

/** Keeps each event's resource: one statement for all of them. */
export async function updateEventResources(manager: EntityManager, kept: readonly { id: string; resource: EventResource }[]): Promise<void> {
  if (!kept.length) return;
  await manager.query(
    `UPDATE events e SET resource = u.resource, resource_key = u.key, previous_attributes = u.previous
       FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, resource jsonb, key text, previous jsonb) WHERE e.id = u.id`,
    [JSON.stringify(kept.map(({ id, resource }) => ({ id, resource: resource.value, key: resource.key, previous: resource.previous })))],
  );
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
