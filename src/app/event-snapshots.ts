import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { EntityManager } from "typeorm";
import { Actor } from "../auth/actor";
import { ALL_PERMISSIONS } from "../auth/permissions";
import type { UnitOfWork } from "../database/unit-of-work";
import { Loaders } from "../loaders/loaders";
import { keepEventResource, lastCommittedResource, PendingEvent, pendingEvents, RESOURCE_PATHS, resourceKey, resourceOf } from "../modules/events";
import { CompiledRoute } from "../rest/shim";
import type { Services } from "./services";

/** No API key stands behind the service's own reads. */
const SERVICE_KEY = "00000000-0000-0000-0000-000000000000";

/**
 * Gives every event its resource as the REST GET answers it, in the transaction that wrote the
 * event, just before it commits (see the KeepEventResourcesAsRead migration): a before-commit hook
 * of the unit of work (database/unit-of-work.ts), which runs the GET's own GraphQL operation with
 * every read made in the committing transaction, so it reads the change with everything else the
 * transaction did (a shift's breaks, a lock). A deletion's object is the resource's last rendering
 * before it. A read that fails leaves the stored row to stand in.
 */
export function renderEventResources(unitOfWork: UnitOfWork, parts: { routes: CompiledRoute[]; services: Services; logger: Logger }): void {
  const reads = new Map(parts.routes.filter((c) => c.route.method === "GET" && RESOURCE_PATHS.has(c.route.path)).map((c) => [c.route.path, c]));

  /** The resource's last rendering before this transaction's (or earlier in it). */
  const lastRendering = async (manager: EntityManager, event: PendingEvent, key: string, last: Map<string, unknown>) => {
    if (!last.has(key)) last.set(key, await lastCommittedResource(manager, event.organization_id, key));
    return last.get(key) as Record<string, unknown> | undefined;
  };

  const render = async (manager: EntityManager, event: PendingEvent, last: Map<string, unknown>): Promise<void> => {
    const read = resourceOf(event.source_table, event.object);
    if (!read) return;
    const key = resourceKey(read);
    const before = await lastRendering(manager, event, key, last);
    let resource: Record<string, unknown> | undefined;
    if (event.type.endsWith(".deleted")) {
      resource = before;
    } else {
      const route = reads.get(read.path)!;
      const actor: Actor = { organizationId: event.organization_id, apiKeyId: SERVICE_KEY, staffId: null, permissions: new Set(ALL_PERMISSIONS) };
      const requestId = randomUUID();
      const variables = Object.fromEntries([...route.variables.keys()].map((name) => [name, read.params[name]]));
      const result = await route.run(
        { requestId, actor, presentedKey: null, services: parts.services, loaders: new Loaders(), logger: parts.logger.child({ reqId: requestId }) },
        variables,
      );
      if (result.errors?.length) {
        parts.logger.warn({ eventId: event.id, type: event.type, err: result.errors[0] }, "event resource: the GET refused; the stored row stands in");
        return;
      }
      resource = JSON.parse(JSON.stringify((result.data as Record<string, unknown>)[route.rootField]));
      last.set(key, resource);
    }
    if (!resource) return;
    // The changed fields' old values as the resource's GET answered them before; the stored row's
    // where there was no earlier reading. An event of a part (a break) carries its whole: no old values.
    let previous: Record<string, unknown> | null = null;
    const changed =
      resource.id === event.object.id ? parts.services.events.presenter.present(event.source_table, event.previous_attributes, resource) : undefined;
    if (changed) previous = before ? Object.fromEntries(Object.keys(changed).map((name) => [name, before[name]])) : changed;
    await keepEventResource(manager, event.id, { key, value: resource, previous });
  };

  unitOfWork.beforeCommit(async (manager) => {
    const events = await pendingEvents(manager);
    if (!events.length) return;
    // A read that fails in the database must not take the change with it: it is undone alone.
    await manager.query("SAVEPOINT event_resources");
    try {
      const last = new Map<string, unknown>();
      for (const event of events) await render(manager, event, last);
      await manager.query("RELEASE SAVEPOINT event_resources");
    } catch (err) {
      parts.logger.warn({ err }, "event resources: reading failed; the stored rows stand in");
      await manager.query("ROLLBACK TO SAVEPOINT event_resources");
    }
  });
}
