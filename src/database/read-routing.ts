import pg, { PoolClient } from "pg";
import { DataSource } from "typeorm";
import type { PostgresDriver } from "typeorm/driver/postgres/PostgresDriver";
import { dataSourceOptions } from "../../ormconfig";
import { Config } from "../config";
import { CountingClient } from "./statement-count";

/** The client a read is for: the one whose own writes the read must show. */
export interface Reader {
  organizationId: string;
  staffId: string | null;
  apiKeyId: string | null;
}

/** ok: used for reads; lag: further behind the primary than REPLICA_MAX_LAG_MS; down: unreachable (or not a replica). */
export type DatabaseStatus = "ok" | "lag" | "down";

export interface DatabaseHealth {
  name: string;
  role: "primary" | "replica";
  status: DatabaseStatus;
  /** How far behind the primary a replica was at its last check, when known. */
  lagMs?: number;
}

/** How often the replicas' positions are compared with the primary's. */
export const REPLICA_CHECK_INTERVAL_MS = 1000;

/**
 * How long after a client's last write its reads stay on the primary: a replica in use has
 * replayed everything the primary had committed REPLICA_MAX_LAG_MS before its last check, and
 * that check is at most one interval old (one more interval covers the check's own time).
 */
export function recentWriteWindowMs(maxLagMs: number): number {
  return maxLagMs + 2 * REPLICA_CHECK_INTERVAL_MS;
}

/** A WAL position ("16/B374D848") as a number. */
function walPosition(text: string): bigint {
  const [high, low] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** A connection string's place without its credentials, for /readyz and the log. */
function placeOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "replica";
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const REPLAYED = "SELECT pg_last_wal_replay_lsn()::text AS replayed";

/** How far the server behind `client` has replayed (null when it is not in recovery). */
async function replayedOn(client: { query(text: string): Promise<{ rows: Record<string, unknown>[] }> }): Promise<string | null> {
  return (await client.query(REPLAYED)).rows[0].replayed as string | null;
}

/** How far a replica has replayed, asked on a single connection of its own (until its data source is opened). */
async function replayedOnce(url: string): Promise<string | null> {
  const client = new CountingClient({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return await replayedOn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

type Connected = (err: Error | undefined, client: PoolClient | undefined, release: (err?: Error | boolean) => void) => void;

/**
 * The `pg` module a replica's data source is given (TypeORM's `driver` option) in place of the real
 * one: its pool hands out replica connections, and when it cannot make one (the replica went away
 * between two checks) calls `down()` and hands out one of the primary's pool instead, so the read
 * still answers. TypeORM asks its pool with a callback; `connectToReplica` never falls back, for the checks.
 */
function replicaDriver(primaryPool: () => pg.Pool, down: () => void) {
  class ReplicaPool extends pg.Pool {
    /** A replica connection for the checks, listened to while it is out (see `lend`). */
    async connectToReplica(): Promise<PoolClient> {
      const client = await super.connect();
      const release = lend(client, client.release.bind(client));
      return Object.assign(client, { release });
    }

    override connect(): Promise<PoolClient>;
    override connect(callback: Connected): void;
    override connect(callback?: Connected): Promise<PoolClient> | void {
      if (!callback) return super.connect();
      super.connect((err, client, release) => {
        if (!err) return callback(err, client, release);
        down();
        primaryPool().connect(callback);
      });
    }
  }
  return { ...pg, Pool: ReplicaPool };
}

/**
 * Listens to a lent connection for its server going away. A replica that stops right after answering
 * a check sends its termination in the same packet as the answer: the connection reports it as an
 * `error` event before the check gives it back, and pg-pool listens only to idle connections
 * (TypeORM listens to those it lends itself), so unheard it would end the process. Heard, the
 * connection is given back broken and the pool drops it.
 */
function lend(client: PoolClient, release: (err?: Error | boolean) => void): (err?: Error | boolean) => void {
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost = error;
  };
  client.on("error", onError);
  return (err) => {
    client.off("error", onError);
    release(err ?? lost);
  };
}

type ReplicaPool = InstanceType<ReturnType<typeof replicaDriver>["Pool"]>;

class Replica {
  status: DatabaseStatus = "down";
  lagMs: number | undefined;
  source: DataSource | undefined;
  /** The source's pool, whose `connectToReplica` never falls back to the primary: for the checks. */
  pool: ReplicaPool | undefined;

  constructor(
    readonly url: string,
    readonly name: string,
  ) {}
}

/**
 * Where reads that may lag a few seconds run: a healthy streaming replica (DATABASE_REPLICA_URLS),
 * else the primary. A service asks for it explicitly (`readerFor(actor)`) for reads that tolerate
 * lag: reports, the export, long lists. Everything else keeps using the primary.
 *
 * A replica is used while its lag is under REPLICA_MAX_LAG_MS. The lag is measured by WAL
 * position, not by `pg_last_xact_replay_timestamp()` (which, after an idle spell of the primary,
 * makes an up-to-date replica look minutes behind): every check samples the primary's
 * `pg_current_wal_lsn()`, and a replica's lag is the age of the newest sample its
 * `pg_last_wal_replay_lsn()` has reached (none when it has reached the sample just taken).
 *
 * Read-your-writes: a client (a staff member's token, or an organization-wide token's API key)
 * that wrote within `recentWriteWindowMs` reads from the primary. Its writes are known from the
 * audit trail, which the database writes in the writing transaction (every process sees them).
 *
 * Replica connections keep no session state (they may go through a pooler as well). A replica
 * that cannot be connected to is marked down at once and the read is served by the primary.
 */
export class ReadRouting {
  private readonly samples: { at: number; position: bigint }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private turn = 0;
  private closed = false;

  private constructor(
    private readonly primary: DataSource,
    private readonly replicas: Replica[],
    private readonly maxLagMs: number,
    private readonly onChange: (health: DatabaseHealth) => void,
  ) {}

  /** Opens the replicas that can be reached and checks them every second until `close()`. */
  static async start(
    primary: DataSource,
    config: Pick<Config, "replicaUrls" | "replicaMaxLagMs">,
    onChange: (health: DatabaseHealth) => void = () => undefined,
  ): Promise<ReadRouting> {
    const routing = new ReadRouting(
      primary,
      config.replicaUrls.map((url, i) => new Replica(url, `replica ${i + 1} (${placeOf(url)})`)),
      config.replicaMaxLagMs,
      onChange,
    );
    if (routing.replicas.length) {
      await routing.check();
      routing.timer = setInterval(() => void routing.check(), REPLICA_CHECK_INTERVAL_MS).unref();
    }
    return routing;
  }

  /** The database for a read that may lag, for this reader: a healthy replica, or the primary. */
  async readerFor(reader: Reader): Promise<DataSource> {
    const healthy = this.replicas.filter((r) => r.status === "ok" && r.source);
    if (!healthy.length || (await this.wroteRecently(reader))) return this.primary;
    return healthy[this.turn++ % healthy.length].source!;
  }

  /** The primary (reachable now or not) and every replica as of its last check. */
  async health(): Promise<DatabaseHealth[]> {
    let primary: DatabaseStatus = "ok";
    try {
      await this.primary.query("SELECT 1");
    } catch {
      primary = "down";
    }
    return [{ name: "primary", role: "primary", status: primary }, ...this.replicas.map((r) => this.healthOf(r))];
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.checking;
    await Promise.all(this.replicas.flatMap((r) => (r.source ? [r.source.destroy().catch(() => undefined)] : [])));
  }

  private healthOf(r: Replica): DatabaseHealth {
    return { name: r.name, role: "replica", status: r.status, ...(r.lagMs !== undefined ? { lagMs: r.lagMs } : {}) };
  }

  private async wroteRecently(reader: Reader): Promise<boolean> {
    const client = reader.staffId ?? reader.apiKeyId;
    // An actor of the service's own (a command-line run) names no credential: it reads what is committed.
    if (!client || !UUID.test(client) || !UUID.test(reader.organizationId)) return false;
    const rows: unknown[] = await this.primary.query(
      `SELECT 1 FROM audit_events
        WHERE organization_id = $1 AND ${reader.staffId ? "actor_staff_id = $2" : "actor_staff_id IS NULL AND actor_api_key_id = $2"}
          AND occurred_at > now() - make_interval(secs => $3::float8 / 1000) LIMIT 1`,
      [reader.organizationId, client, recentWriteWindowMs(this.maxLagMs)],
    );
    return rows.length > 0;
  }

  private check(): Promise<void> {
    return (this.checking ??= (async () => {
      try {
        await this.sample();
        await Promise.all(this.replicas.map((r) => this.checkReplica(r)));
      } finally {
        this.checking = undefined;
      }
    })());
  }

  /** Notes the primary's WAL position now; samples older than the lag bound (and one interval) are no longer needed. */
  private async sample(): Promise<void> {
    try {
      const [{ position }] = await this.primary.query("SELECT pg_current_wal_lsn()::text AS position");
      const at = Date.now();
      this.samples.push({ at, position: walPosition(position) });
      while (this.samples.length > 1 && this.samples[0].at < at - this.maxLagMs - 2 * REPLICA_CHECK_INTERVAL_MS) this.samples.shift();
    } catch {
      // The primary is unreachable: the replicas' lag is measured against the samples already taken.
    }
  }

  private async checkReplica(r: Replica): Promise<void> {
    const before = r.status;
    try {
      // Until a replica has answered once, a plain connection asks: its data source is made only then.
      const replayed = r.pool ? await this.replayedOnPool(r.pool) : await replayedOnce(r.url);
      if (replayed === null) throw new Error("not a streaming replica (not in recovery)");
      const position = walPosition(replayed);
      const newest = this.samples[this.samples.length - 1];
      const reached = [...this.samples].reverse().find((s) => s.position <= position);
      if (!newest || reached === newest) {
        r.lagMs = 0;
        r.status = "ok";
      } else if (reached) {
        r.lagMs = Date.now() - reached.at;
        r.status = r.lagMs <= this.maxLagMs ? "ok" : "lag";
      } else {
        // Behind every sample kept: at least as old as the oldest, and not known to be within the bound.
        r.lagMs = Date.now() - this.samples[0].at;
        r.status = "lag";
      }
      r.source ??= await this.open(r);
    } catch {
      r.status = "down";
      r.lagMs = undefined;
    }
    if (r.status !== before) this.onChange(this.healthOf(r));
  }

  private async replayedOnPool(pool: ReplicaPool): Promise<string | null> {
    const client = await pool.connectToReplica();
    try {
      const replayed = await replayedOn(client);
      client.release();
      return replayed;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }

  /**
   * A replica's data source. A connection it cannot make (the replica went away between two
   * checks) marks it down and is made to the primary instead (`replicaDriver`), so the read still answers.
   */
  private async open(r: Replica): Promise<DataSource> {
    const primaryPool = () => (this.primary.driver as PostgresDriver).master as pg.Pool;
    const down = () => {
      if (r.status === "down") return;
      r.status = "down";
      r.lagMs = undefined;
      this.onChange(this.healthOf(r));
    };
    const source = new DataSource({
      // Replicas keep sending unnamed statements, as before: prepared ones were measured on the primary only.
      ...dataSourceOptions({ databaseUrl: r.url, dataDir: "", preparedStatements: false }),
      poolSize: 10,
      connectTimeoutMS: 2000,
      driver: replicaDriver(primaryPool, down),
    } as never);
    await source.initialize();
    if (this.closed) {
      await source.destroy();
      throw new Error("closed");
    }
    r.pool = (source.driver as PostgresDriver).master as ReplicaPool;
    return source;
  }
}
