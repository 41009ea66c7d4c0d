import { EntityManager } from "typeorm";
import { EventResource, PendingEvent, selectLastCommittedResources, selectPendingEvents, updateEventResources } from "./event.store";

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

/**
 * The resources' last committed renderings (this transaction's events are numbered only at its
 * commit), by `${organizationId} ${key}`.
 */
export function lastCommittedResources(
  manager: EntityManager,
  resources: readonly { organizationId: string; key: string }[],
): Promise<Map<string, Record<string, unknown>>> {
  return selectLastCommittedResources(manager, resources);
}

/** Keeps each event's resource as its REST GET answered it, with the changed fields' old values. */
export function keepEventResources(manager: EntityManager, kept: readonly { id: string; resource: EventResource }[]): Promise<void> {
  return updateEventResources(manager, kept);
}
