import type Redis from "ioredis";
import type { Pool } from "pg";

/** What a budget answers a spend: whether it fits, what is left of the budget and when its window ends. */
export interface BudgetAnswer {
  allowed: boolean;
  remainingPoints: number;
  msBeforeNext: number;
}

/** A budget's count in the store every process shares, for one key's current window. */
export interface CounterStore {
  /**
   * Adds `points` to the key's count in its window (a new window of `windowMs` once the last
   * has ended) and answers the count after the addition and the milliseconds the window has left.
   */
  add(key: string, points: number, windowMs: number): Promise<{ count: number; msLeft: number }>;
  /** Removes the counts of windows that ended (where the store does not expire them itself). */
  forgetEnded?(): Promise<void>;
}

/**
 * A process's budgets spend from leases: a lease is a share of a key's budget that the process
 * takes from the shared store in one addition, then spends locally, call by call, with no round
 * trip. A lease is the smaller of LEASE_SHARE of the budget and a quarter of what the store had
 * left at the last lease (at least the call's cost), so leases shrink as the budget runs out.
 * The store grants no more than the budget holds, so all processes together never admit more
 * than the budget in a window (no overshoot). The price is the other way: a lease not yet spent
 * in one process is spent for the others, so a client may be refused while up to
 * (processes − 1) × LEASE_SHARE of its budget sits unspent in other processes' leases, until the
 * window ends. Once the store refuses, the process refuses locally until the window ends.
 */
export const LEASE_SHARE = 0.05;

interface Lease {
  /** Points leased and not yet spent here. */
  left: number;
  /** The store's count after the last lease: what all processes have taken of the budget. */
  taken: number;
  /** When the window ends (this process's clock). */
  endsAt: number;
  /** The lease being taken from the store, which callers meanwhile wait for. */
  taking?: Promise<void>;
}

export class LeasedBudget {
  private readonly leases = new Map<string, Lease>();
  private readonly windowMs: number;
  private readonly maxLease: number;
  private sweptAt = 0;

  constructor(
    private readonly store: CounterStore,
    private readonly keyPrefix: string,
    private readonly points: number,
    windowSeconds: number,
    /** Counts in this process alone while the store cannot be reached. */
    private readonly insurance: MemoryBudget,
  ) {
    this.windowMs = windowSeconds * 1000;
    this.maxLease = Math.max(1, Math.ceil(points * LEASE_SHARE));
  }

  async spend(key: string, cost: number): Promise<BudgetAnswer> {
    this.sweep(Date.now());
    for (;;) {
      let lease = this.leases.get(key);
      if (lease && !lease.taking && lease.endsAt <= Date.now()) lease = undefined;
      // Calls waiting for a lease are served from it in turn; one that finds too little takes the next.
      if (lease?.taking) {
        await lease.taking;
        continue;
      }
      if (lease && lease.left >= cost) return this.spendFrom(lease, cost);
      if (lease && lease.taken >= this.points) return this.refusal(lease);
      try {
        await this.take(key, cost, lease);
      } catch {
        return this.insurance.spend(key, cost);
      }
    }
  }

  private spendFrom(lease: Lease, cost: number): BudgetAnswer {
    lease.left -= cost;
    return { allowed: true, remainingPoints: Math.max(0, this.points - lease.taken + lease.left), msBeforeNext: Math.max(0, lease.endsAt - Date.now()) };
  }

  private refusal(lease: Lease): BudgetAnswer {
    return { allowed: false, remainingPoints: Math.max(0, this.points - lease.taken + lease.left), msBeforeNext: Math.max(0, lease.endsAt - Date.now()) };
  }

  /** Takes a lease for `key` from the store: its unspent rest of the last lease stays with it (in the same window). */
  private async take(key: string, cost: number, current: Lease | undefined): Promise<void> {
    const storeLeft = current ? this.points - current.taken : this.points;
    const want = Math.max(cost - (current?.left ?? 0), Math.min(this.maxLease, Math.ceil(storeLeft / 4)));
    const lease: Lease = current ?? { left: 0, taken: 0, endsAt: 0 };
    let done!: () => void;
    lease.taking = new Promise<void>((resolve) => (done = resolve));
    this.leases.set(key, lease);
    try {
      const { count, msLeft } = await this.store.add(`${this.keyPrefix}:${key}`, want, this.windowMs);
      const granted = Math.min(want, Math.max(0, this.points - (count - want)));
      // This addition began the store's window: what was left of a lease of the last one is gone with it.
      if (count === want) lease.left = 0;
      lease.left += granted;
      lease.taken = Math.min(count, this.points);
      lease.endsAt = Date.now() + msLeft;
    } catch (error) {
      this.leases.delete(key);
      throw error;
    } finally {
      lease.taking = undefined;
      done();
    }
  }

  /** Forgets leases of ended windows, at most once a window, so idle keys do not pile up. */
  private sweep(now: number): void {
    if (now - this.sweptAt < this.windowMs) return;
    this.sweptAt = now;
    for (const [key, lease] of this.leases) if (lease.endsAt <= now && !lease.taking) this.leases.delete(key);
    // Another call finds out soon enough when the store cannot be reached.
    this.store.forgetEnded?.().catch(() => undefined);
  }
}

/**
 * A budget counted in this process's memory alone: the embedded database's (one process by
 * nature), and a shared budget's stand-in while its store cannot be reached. A refused call spends nothing.
 */
export class MemoryBudget {
  private readonly windows = new Map<string, { used: number; endsAt: number }>();
  private sweptAt = Date.now();

  constructor(
    private readonly points: number,
    private readonly windowSeconds: number,
  ) {}

  spend(key: string, cost: number): BudgetAnswer {
    const now = Date.now();
    if (now - this.sweptAt >= this.windowSeconds * 1000) {
      this.sweptAt = now;
      for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
    }
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) this.windows.set(key, (window = { used: 0, endsAt: now + this.windowSeconds * 1000 }));
    const allowed = window.used + cost <= this.points;
    if (allowed) window.used += cost;
    return { allowed, remainingPoints: this.points - window.used, msBeforeNext: window.endsAt - now };
  }
}

/** Counts in PostgreSQL (table rate_limits.counters), on the server's clock, which every process shares. */
export function postgresCounters(pool: Pick<Pool, "query">): CounterStore {
  return {
    async add(key, points, windowMs) {
      const { rows } = await pool.query<{ count: string; ms_left: string }>({
        text: `WITH now AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms)
               INSERT INTO rate_limits.counters AS c (key, points, expire)
               SELECT $1, $2, now.ms + $3 FROM now
               ON CONFLICT (key) DO UPDATE SET
                 points = CASE WHEN c.expire <= (SELECT ms FROM now) THEN EXCLUDED.points ELSE LEAST(c.points::bigint + EXCLUDED.points, 2000000000)::int END,
                 expire = CASE WHEN c.expire <= (SELECT ms FROM now) THEN EXCLUDED.expire ELSE c.expire END
               RETURNING points AS count, expire - (SELECT ms FROM now) AS ms_left`,
        values: [key, points, windowMs],
      });
      return { count: Number(rows[0].count), msLeft: Number(rows[0].ms_left) };
    },
    async forgetEnded() {
      await pool.query("DELETE FROM rate_limits.counters WHERE expire < (extract(epoch FROM clock_timestamp()) * 1000)::bigint");
    },
  };
}

/** Counts in Redis: one atomic script adds and starts the window's expiry on the key's first addition. */
export function redisCounters(client: Redis): CounterStore {
  const script = `local count = redis.call('INCRBY', KEYS[1], ARGV[1])
    local ttl = redis.call('PTTL', KEYS[1])
    if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
    return {count, ttl}`;
  return {
    async add(key, points, windowMs) {
      const [count, msLeft] = (await client.eval(script, 1, key, points, windowMs)) as [number, number];
      return { count, msLeft };
    },
  };
}
