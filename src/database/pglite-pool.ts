import { EventEmitter } from "node:events";
import { PGlite, types } from "@electric-sql/pglite";
import type { Extension } from "@electric-sql/pglite";
import { prepareDataDir, tightenDataDir } from "./data-dir-modes";
import { EmbeddedTemplate, isNewDataDir } from "./embedded-template";
import { DataDirLock } from "./data-dir-lock";

// The contrib extension ships as its own entry point, which TypeScript's CommonJS resolution does not map.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { btree_gist } = require("@electric-sql/pglite/contrib/btree_gist") as { btree_gist: Extension };

/**
 * A `pg`-compatible pool over one in-process PGlite database, for TypeORM's postgres driver.
 *
 * PGlite is a single connection, so a pool that hands the same connection to two query runners
 * would run one request's statements inside another's transaction. This pool leases the
 * connection to one client at a time: `connect` waits until the previous client is released.
 * Code holding a client must not ask for a second one (that would wait forever); services always
 * work through the transaction's entity manager.
 */

// Parse values as `pg` does, so that code behaves the same on both drivers.
const parsers = {
  [types.INT8]: (v: string) => v,
  [types.NUMERIC]: (v: string) => v,
  [types.DATE]: (v: string) => v,
};

interface QueryResultLike {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
  rowCount?: number;
  command?: string;
}

const LEASE_TIMEOUT_MS = 20_000;

/**
 * PGlite's WebAssembly memory only grows: its default 128 MB of shared buffers, sized for a server
 * shared by many sessions, cost about 95 MB of resident memory at idle in one session that the
 * operating system caches the files for anyway.
 */
const EMBEDDED_SETTINGS = ["shared_buffers = 16MB", "wal_buffers = 1MB"];

export class PGliteDatabase {
  private opened: Promise<PGlite> | undefined;
  private queue: Promise<void> = Promise.resolve();
  private lock: DataDirLock | undefined;
  /** Set when this start created the cluster itself, for want of a template: the migrated result becomes one. */
  private createdWithoutTemplate = false;
  private named: EmbeddedTemplate | undefined;

  /** `migrationsDir`: the compiled migrations, which name the template a new data directory starts from. */
  constructor(
    private readonly dataDir: string,
    private readonly migrationsDir?: string,
  ) {}

  /** The database, opened on first use (merely building a data source must not touch DATA_DIR). */
  instance(): Promise<PGlite> {
    this.opened ??= this.open();
    return this.opened;
  }

  private async open(): Promise<PGlite> {
    const inMemory = this.dataDir === "memory://";
    // Before PGlite touches a file: another process may hold the directory.
    if (!inMemory) prepareDataDir(this.dataDir);
    this.lock = inMemory ? undefined : DataDirLock.acquire(this.dataDir);
    try {
      const template = this.template();
      const fresh = isNewDataDir(this.dataDir);
      this.createdWithoutTemplate = Boolean(template && fresh && !template.serves(this.dataDir));
      if (template && fresh && !this.createdWithoutTemplate && !inMemory) template.copyTo(this.dataDir);
      const loadDataDir = template && fresh && !this.createdWithoutTemplate && inMemory ? template.tarball() : undefined;
      const database = await this.create(loadDataDir);
      if (!inMemory) tightenDataDir(this.dataDir);
      return database;
    } catch (error) {
      this.lock?.release();
      throw error;
    }
  }

  private create(loadDataDir?: Blob): Promise<PGlite> {
    return PGlite.create(this.dataDir === "memory://" ? undefined : this.dataDir, {
      extensions: { btree_gist },
      parsers,
      postgresqlconf: EMBEDDED_SETTINGS,
      loadDataDir,
    });
  }

  private template(): EmbeddedTemplate | undefined {
    if (this.migrationsDir) this.named ??= EmbeddedTemplate.for(this.migrationsDir, EMBEDDED_SETTINGS);
    return this.named;
  }

  /**
   * Once the migrations are applied: a cluster this start created from nothing becomes the
   * template of the next new data directory. On disk the cluster is closed for the copy, then opened again.
   */
  async keepAsTemplate(): Promise<void> {
    if (!this.createdWithoutTemplate) return;
    this.createdWithoutTemplate = false;
    const release = await this.lease();
    try {
      const db = await this.instance();
      const tarball = await db.dumpDataDir("gzip");
      if (this.dataDir === "memory://") return await this.template()!.keep(tarball, undefined);
      await db.close();
      const reopened = this.template()!
        .keep(tarball, this.dataDir)
        .then(() => this.create());
      this.opened = reopened;
      await reopened;
    } finally {
      release();
    }
  }

  /**
   * Waits for the connection; resolves with the function that gives it back. A wait of more than
   * LEASE_TIMEOUT_MS means a caller holds the connection while asking for a second one: fail
   * loudly rather than hang.
   */
  lease(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const previous = this.queue;
    this.queue = previous.then(() => released);
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new Error("Waited too long for the embedded database connection (is it held by an open transaction of the same request?)"));
      }, LEASE_TIMEOUT_MS);
    });
    const granted = previous.then(() => {
      clearTimeout(timer);
      // Nobody waits for a lease that timed out: hand the connection straight on.
      if (timedOut) release();
      let done = false;
      return () => {
        if (!done) {
          done = true;
          release();
        }
      };
    });
    return Promise.race([granted, timeout]);
  }

  async run(sql: string, params?: unknown[]): Promise<QueryResultLike> {
    const db = await this.instance();
    if (params && params.length > 0) {
      const result = await db.query(sql, params);
      return toPgResult(result);
    }
    const results = await db.exec(sql);
    return toPgResult(results[results.length - 1] ?? { rows: [], fields: [] });
  }

  async close(): Promise<void> {
    if (!this.opened) return;
    const db = await this.opened.catch(() => undefined);
    if (db && !db.closed) await db.close();
    this.lock?.release();
  }
}

function toPgResult(result: { rows: unknown[]; fields: { name: string; dataTypeID: number }[]; affectedRows?: number }): QueryResultLike {
  return {
    rows: result.rows,
    fields: result.fields,
    rowCount: result.affectedRows ?? result.rows.length,
    affectedRows: result.affectedRows,
  };
}

type Callback = (err: unknown, result?: unknown) => void;

class PGliteClient extends EventEmitter {
  constructor(private readonly database: PGliteDatabase) {
    super();
  }

  query(sql: string | { text: string; values?: unknown[] }, params?: unknown[] | Callback, callback?: Callback) {
    const text = typeof sql === "string" ? sql : sql.text;
    let values = typeof sql === "string" ? undefined : sql.values;
    let cb = callback;
    if (typeof params === "function") cb = params;
    else if (params) values = params;
    const promise = this.database.run(text, values);
    if (cb) {
      const done = cb;
      promise.then(
        (r) => done(null, r),
        (e) => done(e),
      );
      return undefined;
    }
    return promise;
  }
}

/** The `driver` object TypeORM's postgres driver takes in place of the `pg` module. */
export function pgliteDriver(database: PGliteDatabase) {
  class Pool extends EventEmitter {
    private ending = false;
    totalCount = 1;
    idleCount = 0;
    waitingCount = 0;

    connect(callback?: (err: unknown, client?: PGliteClient, release?: () => void) => void): Promise<unknown> | void {
      const leased = database.instance().then(() => database.lease());
      if (!callback) {
        return leased.then((release) => Object.assign(new PGliteClient(database), { release }));
      }
      leased.then(
        (release) => callback(null, new PGliteClient(database), release),
        (err) => callback(err),
      );
    }

    async query(sql: string, params?: unknown[]) {
      const release = await database.lease();
      try {
        return await database.run(sql, params);
      } finally {
        release();
      }
    }

    end(callback?: (err?: unknown) => void) {
      if (this.ending) return callback?.();
      this.ending = true;
      database.close().then(
        () => callback?.(),
        (err) => callback?.(err),
      );
    }
  }
  return { Pool, native: null, defaults: {}, types: { setTypeParser() {} }, database };
}
