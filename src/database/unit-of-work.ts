import { EntityManager, QueryRunner } from "typeorm";
import type { ApplicationDataSource } from "./data-source";
import { requestActor } from "./request-actor";

/**
 * Work a module runs in every unit of work just before it commits, on its transaction (the events'
 * rendering); it may answer what to do once the change is committed (and only then).
 */
export type BeforeCommit = (manager: EntityManager) => Promise<void | (() => void)>;

/** Serialization failure and deadlock: the database undid the transaction, and running it again may succeed. */
const RETRYABLE = new Set(["40001", "40P01"]);
const ATTEMPTS = 5;

function sqlState(error: unknown): string | undefined {
  const e = error as { code?: string; driverError?: { code?: string } };
  return e?.driverError?.code ?? e?.code;
}

/**
 * The one way the service writes: every change runs in `unitOfWork.run(work)`, which
 *
 * 1. opens a transaction on a query runner of its own, at the database's default isolation: READ
 *    COMMITTED unless an administrator chose a stricter one, whose serialization failures are
 *    retried below (naming the level would cost a statement of its own on every unit);
 * 2. tells the database who acts (`tellTheActor`), for the audit trigger and `record_event`;
 * 3. runs `work` with the transaction's entity manager;
 * 4. runs the before-commit hooks that modules registered at startup (`beforeCommit`), in the
 *    order registered; while a hook runs, every read of the data source is made in this
 *    transaction (`ApplicationDataSource.readingThrough`), so it sees what `work` wrote;
 * 5. commits, then runs what the hooks answered to do once committed.
 *
 * Any error rolls all of it back. A serialization failure or a deadlock (40001, 40P01) re-runs the
 * whole unit, work and hooks, up to five attempts: `work` must have no effect outside the database.
 * Created once at startup (src/app/runtime.ts) and handed to the services as `deps.unitOfWork`.
 */
export class UnitOfWork {
  private readonly hooks: BeforeCommit[] = [];

  constructor(private readonly db: ApplicationDataSource) {}

  /** Adds a hook run before every commit, for as long as the process runs. */
  beforeCommit(hook: BeforeCommit): void {
    this.hooks.push(hook);
  }

  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(work);
      } catch (error) {
        if (attempt >= ATTEMPTS || !RETRYABLE.has(sqlState(error) ?? "")) throw error;
        await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
      }
    }
  }

  private async attempt<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const runner = this.db.createQueryRunner();
    try {
      await runner.startTransaction();
      await tellTheActor(runner);
      const result = await work(runner.manager);
      const onceCommitted: (() => void)[] = [];
      for (const hook of this.hooks) {
        const then = await this.db.readingThrough(runner, () => hook(runner.manager));
        if (then) onceCommitted.push(then);
      }
      await runner.commitTransaction();
      for (const then of onceCommitted) then();
      return result;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }
}

/**
 * Sets `app.actor`, which the audit trigger and `record_event` read, to the actor of the HTTP
 * request this unit of work runs for. That actor is taken from the request's context
 * (`requestActor`, set once per request in src/http/app.ts), not passed in: it carries the request's
 * id and If-Match version, which the services' `Actor` does not. Work outside a request (the
 * accruals, expiries and webhook bookkeeping of scheduled jobs) runs with no actor, as the trigger expects.
 *
 * The setting is local to the transaction (`set_config(…, true)`): a pooler in transaction mode
 * (PgBouncer) hands the server session to other clients after the commit, and must not hand them
 * this request's actor or If-Match version with it.
 */
async function tellTheActor(runner: QueryRunner): Promise<void> {
  const actor = requestActor.getStore();
  if (actor) await runner.query("SELECT set_config('app.actor', $1, true)", [JSON.stringify(actor)]);
}
