import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { EntityManager } from "typeorm";
import { Actor } from "../auth/actor";
import { ALL_PERMISSIONS } from "../auth/permissions";
import type { UnitOfWork } from "../database/unit-of-work";
import { Loaders, requestLoaders } from "../loaders/loaders";
import { keepEventResources, lastCommittedResources, pendingEvents, RESOURCE_PATHS, resourceKey, resourceOf } from "../modules/events";
import type { EventResource, PendingEvent, ResourceRead } from "../modules/events";
import { CompiledRoute } from "../rest/shim";
import type { Services } from "./services";

/** An event whose record a GET reads: that read, the resource's key, and `${organizationId} ${key}`. */
interface NamedEvent {
  event: PendingEvent;
  read: ResourceRead;
  key: string;
  id: string;
}

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

  /** The resource as its GET answers it in the committing transaction; undefined when the GET refuses. */
  const renderNow = async (event: PendingEvent, read: ResourceRead, loaders: Loaders): Promise<Record<string, unknown> | undefined> => {
    const route = reads.get(read.path)!;
    const actor: Actor = { organizationId: event.organization_id, apiKeyId: SERVICE_KEY, staffId: null, permissions: new Set(ALL_PERMISSIONS) };
    const requestId = randomUUID();
    const variables = Object.fromEntries([...route.variables.keys()].map((name) => [name, read.params[name]]));
    const result = await route.run(
      { requestId, actor, presentedKey: null, services: parts.services, loaders, logger: parts.logger.child({ reqId: requestId }) },
      variables,
    );
    if (result.errors?.length) {
      parts.logger.warn({ eventId: event.id, type: event.type, err: result.errors[0] }, "event resource: the GET refused; the stored row stands in");
      return undefined;
    }
    return JSON.parse(JSON.stringify((result.data as Record<string, unknown>)[route.rootField]));
  };

  /**
   * Every resource that events other than deletions name, as its GET answers it now. The hook runs
   * after all the transaction's work, so a resource several events name reads the same each time:
   * it is read once. All are read at once, with one set of loaders per organization (as a request
   * has), so that the GETs' loads of one kind become one statement whatever the number of
   * resources (a publish names every entry it wrote); the lent runner sends them in turn. A failed
   * read fails the whole, once every read has ended: none is left running when the hook rolls back.
   */
  const renderCurrent = async (named: NamedEvent[], loaders: Map<string, Loaders>): Promise<Map<string, Record<string, unknown> | undefined>> => {
    const toRender = new Map(named.filter(({ event }) => !event.type.endsWith(".deleted")).map((n) => [n.id, n]));
    const loadersOf = (organizationId: string) => loaders.get(organizationId) ?? loaders.set(organizationId, new Loaders(organizationId)).get(organizationId)!;
    const settled = await Promise.allSettled(
      [...toRender.values()].map(async ({ event, read, id }) => [id, await renderNow(event, read, loadersOf(event.organization_id))] as const),
    );
    const failed = settled.find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
    return new Map(settled.map((s) => (s as PromiseFulfilledResult<readonly [string, Record<string, unknown> | undefined]>).value));
  };

  /** Each event's resource and the changed fields' old values; the earlier renderings are read in one statement. */
  const renderAll = async (manager: EntityManager, named: NamedEvent[], loaders: Map<string, Loaders>): Promise<{ id: string; resource: EventResource }[]> => {
    const pairs = new Map(named.map(({ event, key, id }) => [id, { organizationId: event.organization_id, key }]));
    /** Each resource's last rendering: committed, then this transaction's. */
    const last: Map<string, Record<string, unknown> | undefined> = await lastCommittedResources(manager, [...pairs.values()]);
    const now = await renderCurrent(named, loaders);
    const kept: { id: string; resource: EventResource }[] = [];
    for (const { event, key, id } of named) {
      const before = last.get(id);
      let resource: Record<string, unknown> | undefined;
      if (event.type.endsWith(".deleted")) {
        resource = before;
      } else {
        resource = now.get(id);
        if (resource) last.set(id, resource);
      }
      if (!resource) continue;
      // The changed fields' old values as the resource's GET answered them before; the stored row's
      // where there was no earlier reading. An event of a part (a break) carries its whole: no old values.
      let previous: Record<string, unknown> | null = null;
      const changed =
        resource.id === event.object.id ? parts.services.events.presenter.present(event.source_table, event.previous_attributes, resource) : undefined;
      if (changed) previous = before ? Object.fromEntries(Object.keys(changed).map((name) => [name, before[name]])) : changed;
      kept.push({ id: event.id, resource: { key, value: resource, previous } });
    }
    return kept;
  };

  unitOfWork.beforeCommit(async (manager) => {
    const named = (await pendingEvents(manager)).flatMap((event): NamedEvent[] => {
      const read = resourceOf(event.source_table, event.object);
      if (!read) return [];
      const key = resourceKey(read);
      return [{ event, read, key, id: `${event.organization_id} ${key}` }];
    });
    // Once committed, the request that made the change answers from what the rendering read (its
    // organization-wide loaders: the same rows for every caller), and forgets what it read before the change.
    const request = requestLoaders.getStore();
    const loaders = new Map<string, Loaders>();
    const answerFromRendering = () => request?.takeOver(request.organizationId ? loaders.get(request.organizationId) : undefined);
    // Events of records without a GET of their own (a shift request's steps) have nothing to render.
    if (!named.length) return answerFromRendering;
    // A read that fails in the database must not take the change with it: it is undone alone.
    await manager.query("SAVEPOINT event_resources");
    try {
      // No RELEASE: the commit that follows keeps the savepoint's work, and a statement fewer is sent.
      await keepEventResources(manager, await renderAll(manager, named, loaders));
    } catch (err) {
      parts.logger.warn({ err }, "event resources: reading failed; the stored rows stand in");
      await manager.query("ROLLBACK TO SAVEPOINT event_resources");
      // What the failed rendering read was undone with it.
      loaders.clear();
    }
    return answerFromRendering;
  });
}
