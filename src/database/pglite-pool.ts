import { EventEmitter } from "node:events";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { prepareDataDir, tightenDataDir } from "./data-dir-modes";
import { EmbeddedTemplate, isNewDataDir } from "./embedded-template";
import { DataDirLock } from "./data-dir-lock";
import { countStatement } from "./statement-count";
import type { DatabaseMessage, DatabaseRequest, DatabaseThreadOptions } from "./pglite-thread";

/**
 * A `pg`-compatible pool over one PGlite database, for TypeORM's postgres driver. The database
 * runs in a thread of its own (pglite-thread.ts): PostgreSQL starting took most of a start, and
 * now runs while the service's modules load; its queries no longer hold the event loop.
 *
 * PGlite is a single connection, so a pool that hands the same connection to two query runners
 * would run one request's statements inside another's transaction. This pool leases the
 * connection to one client at a time: `connect` waits until the previous client is released.
 * Code holding a client must not ask for a second one (that would wait forever); services always
 * work through the transaction's entity manager.
 */

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
 * operating system caches the files for anyway. 8 MB rather than 16 since the database's thread has
 * a heap of its own (about 20 MB resident) within the same memory.
 */
const EMBEDDED_SETTINGS = ["shared_buffers = 8MB", "wal_buffers = 1MB"];

/** Types whose values PGlite reads into Dates: timestamp, timestamptz, and their arrays. */
const DATE_TYPES = new Set([1114, 1184, 1115, 1185]);

/**
 * A Date made in the database thread as one of this module's: Dates cross threads as Dates of the
 * receiving side's main realm, which is not this one under a sandboxing test runner, and there
 * `instanceof Date` (GraphQL's scalars, the services) would not know them.
 */
function localDates(value: unknown): unknown {
  if (value instanceof Date || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(localDates);
  return Object.prototype.toString.call(value) === "[object Date]" ? new Date((value as Date).getTime()) : value;
}

/** A result with its Dates made here (`localDates`). */
function withLocalDates(result: QueryResultLike): QueryResultLike {
  const dated = result.fields.filter((f) => DATE_TYPES.has(f.dataTypeID)).map((f) => f.name);
  for (const row of result.rows as Record<string, unknown>[]) for (const name of dated) row[name] = localDates(row[name]);
  return result;
}

/** An error the database thread reported, with its fields (code, constraint, detail…) as the `pg` driver's errors have them. */
function threadError(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message));
  Object.assign(error, fields);
  return error;
}

/** The database thread: requests out, answers and notifications back. */
class DatabaseThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Map<string, (payload: string) => void>();
  private nextId = 0;
  /** Why the thread can answer nothing more (it failed or ended), once it cannot. */
  private lost: Error | undefined;
  readonly opened: Promise<void>;

  constructor(options: DatabaseThreadOptions) {
    // The young generation of the service's own heap (three semi-spaces of `--max-semi-space-size=8`), which V8's default would double.
    this.worker = new Worker(path.join(__dirname, "pglite-thread.js"), { workerData: options, resourceLimits: { maxYoungGenerationSizeMb: 24 } });
    this.opened = new Promise((resolve, reject) => {
      this.worker.on("message", (message: DatabaseMessage) => {
        if (message.kind === "opened") resolve();
        else if (message.kind === "failed") reject(threadError(message.error));
        else if (message.kind === "notification") this.listeners.get(message.channel)?.(message.payload);
        else this.settle(message);
      });
      const end = (error: Error) => {
        this.lost ??= error;
        reject(error);
        for (const { reject: fail } of this.pending.values()) fail(error);
        this.pending.clear();
      };
      this.worker.on("error", end);
      this.worker.on("exit", (code) => end(new Error(`The embedded database's thread ended (exit code ${code})`)));
    });
    // A failure to open is answered to whoever uses the database, not left unhandled here.
    this.opened.catch(() => undefined);
  }

  private settle(message: Extract<DatabaseMessage, { id: number }>): void {
    const waiting = this.pending.get(message.id);
    this.pending.delete(message.id);
    if (message.kind === "answer") waiting?.resolve(message.result);
    else waiting?.reject(threadError(message.error));
  }

  request<T>(request: DistributiveOmit<DatabaseRequest, "id">): Promise<T> {
    if (this.lost) return Promise.reject(this.lost);
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      // Throws (and so rejects) for a parameter that cannot cross threads, before anything waits on it.
      this.worker.postMessage({ ...request, id });
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
    });
  }

  async listen(channel: string, handler: (payload: string) => void): Promise<void> {
    this.listeners.set(channel, handler);
    await this.request({ kind: "listen", channel });
  }

  async close(): Promise<void> {
    await this.request({ kind: "close" });
    await this.worker.terminate();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export class PGliteDatabase {
  /** Databases opened before their data source was built (`openEarly`), by data directory. */
  private static readonly early = new Map<string, PGliteDatabase>();

  /**
   * Starts opening the database in `dataDir` now, for the data source built later to take (`for`):
   * the service's start calls this before loading its modules, which then load while PostgreSQL starts.
   */
  static openEarly(dataDir: string, migrationsDir: string): void {
    const database = new PGliteDatabase(dataDir, migrationsDir);
    // A failure to open is answered to the data source's first query.
    database.open().catch(() => undefined);
    PGliteDatabase.early.set(dataDir, database);
  }

  /**
   * The database in `dataDir`: the one opened early, if any, else a new one. Every data source
   * built on that directory gets the early one (ormconfig's default export is built too, and never opened).
   */
  static for(dataDir: string, migrationsDir: string): PGliteDatabase {
    return PGliteDatabase.early.get(dataDir) ?? new PGliteDatabase(dataDir, migrationsDir);
  }

  private opened: Promise<DatabaseThread> | undefined;
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

  /** Opens the database (once; merely building a data source must not touch DATA_DIR). */
  open(): Promise<void> {
    return this.thread().then(() => undefined);
  }

  private thread(): Promise<DatabaseThread> {
    this.opened ??= this.start();
    return this.opened;
  }

  private async start(): Promise<DatabaseThread> {
    const inMemory = this.dataDir === "memory://";
    // Before PGlite touches a file: another process may hold the directory.
    if (!inMemory) prepareDataDir(this.dataDir);
    this.lock = inMemory ? undefined : DataDirLock.acquire(this.dataDir);
    try {
      const template = this.template();
      const fresh = isNewDataDir(this.dataDir);
      this.createdWithoutTemplate = Boolean(template && fresh && !template.serves(this.dataDir));
      if (template && fresh && !this.createdWithoutTemplate && !inMemory) template.copyTo(this.dataDir);
      const tarballFile = template && fresh && !this.createdWithoutTemplate && inMemory ? template.tarballFile() : undefined;
      const thread = await this.create(tarballFile);
      if (!inMemory) tightenDataDir(this.dataDir);
      return thread;
    } catch (error) {
      this.lock?.release();
      throw error;
    }
  }

  private async create(tarballFile?: string): Promise<DatabaseThread> {
    const thread = new DatabaseThread({ dataDir: this.dataDir, postgresqlconf: EMBEDDED_SETTINGS, tarballFile });
    await thread.opened;
    return thread;
  }

  /** Whether this data directory, if new, would start as a copy of a template (one is kept for these migrations and settings). */
  hasTemplate(): boolean {
    return Boolean(this.template()?.serves(this.dataDir));
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
      const thread = await this.thread();
      const tarball = new Blob([await thread.request<ArrayBuffer>({ kind: "dump" })]);
      if (this.dataDir === "memory://") return await this.template()!.keep(tarball, undefined);
      await thread.close();
      const reopened = this.template()!
        .keep(tarball, this.dataDir)
        .then(() => this.create());
      this.opened = reopened;
      await reopened;
    } finally {
      release();
    }
  }

  /** Calls `handler` with the payload of every notification on `channel` (LISTEN). */
  async listen(channel: string, handler: (payload: string) => void): Promise<void> {
    await (await this.thread()).listen(channel, handler);
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
    countStatement();
    const thread = await this.thread();
    // Without parameters, a text may hold several statements (migrations): the last one answers.
    return withLocalDates(await thread.request(params && params.length > 0 ? { kind: "query", sql, params } : { kind: "exec", sql }));
  }

  async close(): Promise<void> {
    if (!this.opened) return;
    const thread = await this.opened.catch(() => undefined);
    await thread?.close();
    this.lock?.release();
  }
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
      const leased = database.open().then(() => database.lease());
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
