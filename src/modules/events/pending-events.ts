import { EntityManager } from "typeorm";
import { EventResource, PendingEvent, selectLastCommittedResource, selectPendingEvents, updateEventResource } from "./event.store";

/**
 * What the rendering of events before commit (`app/event-snapshots.ts`) reads and writes, in the
 * committing transaction: the events it recorded, the last committed rendering of a resource, and
 * the rendering kept with an event.
 */

export type { EventResource, PendingEvent } from "./event.store";

/** The events this transaction recorded so far, in the order recorded. */
export function pendingEvents(manager: EntityManager): Promise<PendingEvent[]> {
  return selectPendingEvents(manager);
}

/** The resource's last committed rendering (this transaction's events are numbered only at its commit). */
export function lastCommittedResource(manager: EntityManager, organizationId: string, key: string): Promise<Record<string, unknown> | undefined> {
  return selectLastCommittedResource(manager, organizationId, key);
}

/** Keeps an event's resource as its REST GET answered it, with the changed fields' old values. */
export function keepEventResource(manager: EntityManager, id: string, resource: EventResource): Promise<void> {
  return updateEventResource(manager, id, resource);
}
