import { AsyncLocalStorage } from "node:async_hooks";
import { DataSource } from "typeorm";

/** Who a request acts for, as the audit trail records it. */
export interface RequestActor {
  staffId: string | null;
  apiKeyId: string | null;
  requestId: string;
  /** The version of a record the caller read (If-Match `"<id>@<updatedAt>"`); the database refuses to change it from another. */
  ifMatch?: { id: string; version: string };
}

const RECORD_VERSION = /^"?([0-9a-f-]{36})@([0-9T:.Z-]{20,30})"?$/i;

/**
 * The record version an If-Match header names: undefined without a condition (no header, or "*");
 * null when the header names no record version ("x@y", a hash), which no record can match.
 */
export function recordVersionOf(ifMatch: string | undefined): RequestActor["ifMatch"] | null {
  const given = ifMatch?.trim().replace(/^W\//, "");
  if (given === undefined || given === "*") return undefined;
  const m = RECORD_VERSION.exec(given);
  return m ? { id: m[1].toLowerCase(), version: m[2] } : null;
}

/** Carries the request's actor through every await of the request, down to its database calls. */
export const requestActor = new AsyncLocalStorage<RequestActor>();

/** A statement that writes: a WITH counts only when one of its parts does, so its reads stay outside a transaction. */
export const WRITE = /^\s*(INSERT|UPDATE|DELETE|MERGE|COPY)\b|^\s*WITH\b[\s\S]*\b(INSERT|UPDATE|DELETE)\b/i;
const BEGIN = /^\s*(BEGIN|START\s+TRANSACTION)\b/i;
const END = /^\s*(COMMIT|END|ROLLBACK|ABORT)\s*(;|$|AND\b|WORK\b|TRANSACTION\b)/i;
const TO_SAVEPOINT = /^\s*ROLLBACK\s+(WORK\s+|TRANSACTION\s+)?TO\b/i;

type Query = (sql: unknown, params?: unknown) => Promise<unknown>;
interface Connection {
  query: Query;
  /** Connections that share one database session (PGlite's) name it; a pg client is its own session. */
  session?: object;
}

/** Where a session stands: outside a transaction, or inside one that was (or was not yet) told the actor. */
type SessionState = "idle" | "untold" | "told";

const wrapped = new WeakSet<object>();
const states = new WeakMap<object, SessionState>();

const SET_ACTOR = "SELECT set_config('app.actor', $1, true)";

/**
 * Makes every database connection tell PostgreSQL who is writing: before the first write of a
 * transaction, `app.actor` is set to the request's actor for that transaction only
 * (`set_config(…, true)`); a write outside a transaction is wrapped in one for the purpose. The
 * setting never outlives its transaction, so a pooler in transaction mode (PgBouncer), which hands
 * the next transaction on the same server session to another client, cannot carry one request's
 * actor or If-Match version into another's write. The audit trigger reads the setting; reads pay nothing.
 */
export function tellDatabaseTheActor(db: DataSource): void {
  const driver = db.driver as unknown as { obtainMasterConnection(): Promise<[Connection, (err?: unknown) => void]> };
  const obtain = driver.obtainMasterConnection.bind(driver);
  driver.obtainMasterConnection = async () => {
    const [connection, release] = await obtain();
    if (!wrapped.has(connection)) {
      wrapped.add(connection);
      const query = connection.query.bind(connection) as Query;
      const session = connection.session ?? connection;
      connection.query = async (sql: unknown, params?: unknown) => {
        const text = typeof sql === "string" ? sql : ((sql as { text?: string })?.text ?? "");
        const state = states.get(session) ?? "idle";
        const actor = requestActor.getStore();
        if (actor && WRITE.test(text)) {
          const told = JSON.stringify(actor);
          if (state === "untold") {
            await query(SET_ACTOR, [told]);
            states.set(session, "told");
          } else if (state === "idle") {
            return writeInItsOwnTransaction(query, told, sql, params);
          }
          return query(sql, params);
        }
        const result = await query(sql, params);
        if (BEGIN.test(text)) states.set(session, "untold");
        else if (TO_SAVEPOINT.test(text)) {
          // The setting may have been made after the savepoint, and is undone with it.
          if (state === "told") states.set(session, "untold");
        } else if (END.test(text)) states.set(session, "idle");
        return result;
      };
    }
    return [connection, release];
  };
}

async function writeInItsOwnTransaction(query: Query, actor: string, sql: unknown, params: unknown): Promise<unknown> {
  await query("BEGIN");
  try {
    await query(SET_ACTOR, [actor]);
    const result = await query(sql, params);
    await query("COMMIT");
    return result;
  } catch (error) {
    await query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
