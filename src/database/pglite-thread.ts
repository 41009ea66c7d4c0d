import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, types } from "@electric-sql/pglite";
import type { Extension } from "@electric-sql/pglite";

/**
 * The embedded PostgreSQL, in a thread of its own (see PGliteDatabase): it starts while the
 * service's modules load, and its queries run beside the service's JavaScript rather than in turn
 * with it. It answers the requests of pglite-pool.ts, in the order they come.
 */

// The contrib extension ships as its own entry point, which TypeScript's CommonJS resolution does not map.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { btree_gist } = require("@electric-sql/pglite/contrib/btree_gist") as { btree_gist: Extension };

/** How the thread opens the database. */
export interface DatabaseThreadOptions {
  /** A directory, or "memory://". */
  dataDir: string;
  postgresqlconf: string[];
  /** A data directory's tarball to start from (an in-memory database's template). */
  tarballFile?: string;
}

export type DatabaseRequest =
  | { id: number; kind: "query"; sql: string; params: unknown[] }
  | { id: number; kind: "exec"; sql: string }
  | { id: number; kind: "listen"; channel: string }
  | { id: number; kind: "dump" }
  | { id: number; kind: "close" };

export type DatabaseMessage =
  | { kind: "opened" }
  | { kind: "failed"; error: Record<string, unknown> }
  | { kind: "notification"; channel: string; payload: string }
  | { kind: "answer"; id: number; result: unknown }
  | { kind: "error"; id: number; error: Record<string, unknown> };

// Parse values as `pg` does, so that code behaves the same on both drivers.
const parsers = {
  [types.INT8]: (v: string) => v,
  [types.NUMERIC]: (v: string) => v,
  [types.DATE]: (v: string) => v,
};

/** An error as its plain fields (code, constraint, detail…): a thrown object would cross threads without its own properties. */
function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields = Object.fromEntries(Object.entries(error).filter(([, value]) => ["string", "number", "boolean"].includes(typeof value)));
  return { ...fields, name: error.name, message: error.message, stack: error.stack };
}

function toPgResult(result: { rows: unknown[]; fields: { name: string; dataTypeID: number }[]; affectedRows?: number }) {
  return { rows: result.rows, fields: result.fields, rowCount: result.affectedRows ?? result.rows.length, affectedRows: result.affectedRows };
}

async function answer(db: PGlite, request: DatabaseRequest): Promise<{ result: unknown; transfer?: ArrayBuffer[] }> {
  switch (request.kind) {
    case "query":
      return { result: toPgResult(await db.query(request.sql, request.params)) };
    case "exec": {
      const results = await db.exec(request.sql);
      return { result: toPgResult(results[results.length - 1] ?? { rows: [], fields: [] }) };
    }
    case "listen":
      await db.listen(request.channel, (payload) => port.postMessage({ kind: "notification", channel: request.channel, payload } satisfies DatabaseMessage));
      return { result: null };
    case "dump": {
      const bytes = await (await db.dumpDataDir("gzip")).arrayBuffer();
      return { result: bytes, transfer: [bytes] };
    }
    case "close":
      await db.close();
      return { result: null };
  }
}

const port = parentPort!;
const options = workerData as DatabaseThreadOptions;
PGlite.create(options.dataDir === "memory://" ? undefined : options.dataDir, {
  extensions: { btree_gist },
  parsers,
  postgresqlconf: options.postgresqlconf,
  loadDataDir: options.tarballFile ? new Blob([readFileSync(options.tarballFile)]) : undefined,
}).then(
  (db) => {
    port.on("message", (request: DatabaseRequest) => {
      answer(db, request).then(
        ({ result, transfer }) => port.postMessage({ kind: "answer", id: request.id, result } satisfies DatabaseMessage, transfer),
        (error) => port.postMessage({ kind: "error", id: request.id, error: errorFields(error) } satisfies DatabaseMessage),
      );
    });
    port.postMessage({ kind: "opened" } satisfies DatabaseMessage);
  },
  (error) => port.postMessage({ kind: "failed", error: errorFields(error) } satisfies DatabaseMessage),
);
