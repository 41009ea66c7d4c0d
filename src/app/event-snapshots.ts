import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import { DataSource, QueryRunner } from "typeorm";
import { Actor } from "../auth/actor";
import { ALL_PERMISSIONS } from "../auth/permissions";
import { WRITE } from "../database/request-actor";
import { Loaders } from "../loaders/loaders";
import { RESOURCE_PATHS, resourceKey, resourceOf } from "../modules/events";
import { restRoutes } from "./modules";
import { compileRoutes, CompiledRoute } from "../rest/shim";
import type { Services } from "./services";

/**
 * Tables whose writes record no event (no event trigger, none that cascades to one): the event
 * log itself and webhook delivery bookkeeping. A transaction that wrote only these is not looked
 * at before its commit, and a lone write to them needs no transaction.
 */
/** Set on a query runner whose transaction ran a statement that may have recorded events. */
const RECORDS = Symbol("records events");
const QUIET_TABLES = new Set(["events", "webhook_deliveries", "webhook_attempts"]);
// A row lock (FOR UPDATE OF …) writes nothing; an upsert's DO UPDATE names no table and counts as unknown.
const WRITTEN_TABLE = /(?<!\bFOR\s+(?:NO\s+KEY\s+)?)\b(?:UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+"?(\w+)"?/gi;

/** Whether a statement may record events: a write to a table other than the quiet ones, or a call of record_event. */
function mayRecordEvents(sql: string): boolean {
  if (/\brecord_event\s*\(/i.test(sql)) return true;
  if (!WRITE.test(sql)) return false;
  const tables = [...sql.matchAll(WRITTEN_TABLE)].map((m) => m[1].toLowerCase());
  return !tables.length || tables.some((t) => !QUIET_TABLES.has(t));
}

/** No API key stands behind the service's own reads. */
const SERVICE_KEY = "00000000-0000-0000-0000-000000000000";

interface PendingEvent {
  id: string;
  organization_id: string;
  type: string;
  source_table: string;
  object: Record<string, unknown>;
  previous_attributes: Record<string, unknown> | null;
}

/**
 * Gives every event its resource as the REST GET answers it, in the transaction that wrote the
 * event, just before it commits (see the KeepEventResourcesAsRead migration): the GET's own
 * GraphQL operation runs on the committing transaction's connection, so it reads the change with
 * everything else the transaction did (a shift's breaks, a lock). A deletion's object is the
 * resource's last rendering before it. A read that fails leaves the stored row to stand in.
 */
export function snapshotEventResources(db: DataSource, parts: { schema: GraphQLSchema; services: Services; logger: Logger }): void {
  const reads = new Map<string, CompiledRoute>(
    compileRoutes(
      parts.schema,
      restRoutes.filter((r) => r.method === "GET" && RESOURCE_PATHS.has(r.path)),
    ).map((c) => [c.route.path, c]),
  );
  const transaction = new AsyncLocalStorage<QueryRunner>();
  // Inside a rendering every read the resolvers make goes to the committing transaction's connection.
  // Resolvers and loaders read side by side, and one connection answers one statement at a time:
  // their reads queue here, each sent once the one before it has answered (pg refuses a statement
  // on a busy connection). A write outside a transaction (a repository's update) gets one of
  // TypeORM's own, so that its events are read before it commits too.
  const lines = new WeakMap<QueryRunner, Promise<unknown>>();
  const inLine =
    (shared: QueryRunner) =>
    (...args: unknown[]) => {
      const previous = lines.get(shared) ?? Promise.resolve();
      const sent = previous.then(() => (shared.query as (...a: unknown[]) => Promise<unknown>)(...args));
      lines.set(
        shared,
        sent.catch(() => undefined),
      );
      return sent;
    };
  const createQueryRunner = db.createQueryRunner.bind(db);
  db.createQueryRunner = ((mode?: "master" | "slave") => {
    const shared = transaction.getStore();
    if (shared) return Object.create(shared, { release: { value: async () => undefined }, query: { value: inLine(shared) } });
    const runner = createQueryRunner(mode) as QueryRunner & { [RECORDS]?: boolean };
    const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
    runner.query = (async (sql: string, ...rest: unknown[]) => {
      const records = typeof sql === "string" && mayRecordEvents(sql);
      if (runner.isTransactionActive) {
        if (records) runner[RECORDS] = true;
        return query(sql, ...rest);
      }
      if (!records) return query(sql, ...rest);
      await runner.startTransaction();
      runner[RECORDS] = true;
      try {
        const result = await query(sql, ...rest);
        await runner.commitTransaction();
        return result;
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        throw error;
      }
    }) as QueryRunner["query"];
    return runner;
  }) as DataSource["createQueryRunner"];

  /** The resource's last rendering before this transaction's (or earlier in it). */
  const lastRendering = async (
    runner: QueryRunner,
    event: PendingEvent,
    key: string,
    last: Map<string, unknown>,
  ): Promise<Record<string, unknown> | undefined> => {
    if (!last.has(key)) {
      // Committed events only: this transaction's are numbered at its commit, and rendered here in order.
      const [previous] = await runner.query(
        "SELECT resource FROM events WHERE organization_id = $1 AND resource_key = $2 AND sequence IS NOT NULL AND resource IS NOT NULL ORDER BY sequence DESC LIMIT 1",
        [event.organization_id, key],
      );
      last.set(key, previous?.resource);
    }
    return last.get(key) as Record<string, unknown> | undefined;
  };

  const render = async (runner: QueryRunner, event: PendingEvent, last: Map<string, unknown>): Promise<void> => {
    const read = resourceOf(event.source_table, event.object);
    if (!read) return;
    const key = resourceKey(read);
    const before = await lastRendering(runner, event, key, last);
    let resource: Record<string, unknown> | undefined;
    if (event.type.endsWith(".deleted")) {
      resource = before;
    } else {
      const route = reads.get(read.path)!;
      const actor: Actor = { organizationId: event.organization_id, apiKeyId: SERVICE_KEY, staffId: null, permissions: new Set(ALL_PERMISSIONS) };
      const requestId = randomUUID();
      const variables = Object.fromEntries([...route.variables.keys()].map((name) => [name, read.params[name]]));
      const result = await transaction.run(runner, () =>
        route.run(
          { requestId, actor, presentedKey: null, services: parts.services, loaders: new Loaders(), logger: parts.logger.child({ reqId: requestId }) },
          variables,
        ),
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
    await runner.query("UPDATE events SET resource = $2, resource_key = $3, previous_attributes = $4 WHERE id = $1", [
      event.id,
      JSON.stringify(resource),
      key,
      previous === null ? null : JSON.stringify(previous),
    ]);
  };

  db.subscribers.push({
    async beforeTransactionCommit({ queryRunner }) {
      // Once, at the outermost commit (a savepoint's release is a commit too, to TypeORM).
      if (!queryRunner || (queryRunner as unknown as { transactionDepth: number }).transactionDepth !== 1) return;
      const runner = queryRunner as QueryRunner & { [RECORDS]?: boolean };
      if (!runner[RECORDS]) return;
      runner[RECORDS] = false;
      const [{ pending }] = await queryRunner.query("SELECT current_setting('app.pending_events', true) AS pending");
      const ids = (pending ?? "").split(" ").filter(Boolean);
      if (!ids.length) return;
      const events: PendingEvent[] = await queryRunner.query(
        "SELECT id, organization_id, type, source_table, object, previous_attributes FROM events WHERE id = ANY($1::uuid[]) ORDER BY array_position($1::uuid[], id)",
        [ids],
      );
      // A read that fails in the database must not take the change with it: it is undone alone.
      await queryRunner.query("SAVEPOINT event_resources");
      try {
        const last = new Map<string, unknown>();
        for (const event of events) await render(queryRunner, event, last);
        await queryRunner.query("RELEASE SAVEPOINT event_resources");
      } catch (err) {
        parts.logger.warn({ err }, "event resources: reading failed; the stored rows stand in");
        await queryRunner.query("ROLLBACK TO SAVEPOINT event_resources");
      }
    },
  });
}
