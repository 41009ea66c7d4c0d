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

const WRITE = /^\s*(INSERT|UPDATE|DELETE|WITH|MERGE|COPY)\b/i;
const ROLLBACK = /^\s*ROLLBACK\b/i;

type Query = (sql: unknown, params?: unknown) => Promise<unknown>;
interface Connection {
  query: Query;
  /** Connections that share one database session (PGlite's) name it; a pg client is its own session. */
  session?: object;
}

const wrapped = new WeakSet<object>();
/** The actor each database session was last told about. */
const told = new WeakMap<object, string>();

/**
 * Makes every database connection tell PostgreSQL who is writing: before a write, the connection's
 * `app.actor` setting is set to the request's actor when it differs from what the connection
 * last had (a rollback forgets it, as PostgreSQL does). The audit trigger reads the setting in the
 * transaction of the write; reads pay nothing.
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
        if (WRITE.test(text)) {
          const actor = requestActor.getStore();
          const wanted = actor ? JSON.stringify(actor) : "";
          if (wanted !== (told.get(session) ?? "")) {
            await query("SELECT set_config('app.actor', $1, false)", [wanted]);
            told.set(session, wanted);
          }
        } else if (ROLLBACK.test(text)) {
          told.set(session, "unknown after a rollback");
        }
        return query(sql, params);
      };
    }
    return [connection, release];
  };
}
