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
export async function deleteEventsBefore(db: Queryable, before: Date): Promise<number> {
  const [{ n }] = await db.query("WITH gone AS (DELETE FROM events WHERE occurred_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone", [before]);
  return n;
}
