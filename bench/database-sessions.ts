import { Client } from "pg";

/** How many sessions of the database were in each state, on average over the samples. */
export interface SessionStates {
  samples: number;
  /** Running a statement. */
  running: number;
  /** Inside a transaction, waiting for the service to send its next statement. */
  waitingForService: number;
  /** Waiting on a lock, by the lock's type. */
  waitingOnLocks: Record<string, number>;
  /** Writing or flushing the write-ahead log at commit. */
  waitingOnCommitWrites: number;
  idle: number;
}

/**
 * Samples, every 20 ms until stopped, what the database's sessions of the service are doing
 * (pg_stat_activity): whether a slow answer waits on the database, on a lock, or on the service
 * itself while its transaction stays open.
 */
export async function sampleSessions(serverUrl: string, database: string): Promise<{ stop(): Promise<SessionStates> }> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  const states: SessionStates = { samples: 0, running: 0, waitingForService: 0, waitingOnLocks: {}, waitingOnCommitWrites: 0, idle: 0 };
  let stopped = false;
  const sampling = (async () => {
    while (!stopped) {
      const { rows } = await client.query<{ state: string; wait_event_type: string | null; wait_event: string | null }>(
        `SELECT state, wait_event_type, wait_event FROM pg_stat_activity
          WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
        [database],
      );
      states.samples++;
      for (const r of rows) {
        if (r.wait_event_type === "Lock") states.waitingOnLocks[r.wait_event!] = (states.waitingOnLocks[r.wait_event!] ?? 0) + 1;
        else if (r.state === "idle in transaction") states.waitingForService++;
        else if (r.state === "idle") states.idle++;
        else if (r.wait_event_type === "IO" || r.wait_event === "WALWrite") states.waitingOnCommitWrites++;
        else states.running++;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await sampling;
      await client.end();
      const n = Math.max(1, states.samples);
      return {
        samples: states.samples,
        running: states.running / n,
        waitingForService: states.waitingForService / n,
        waitingOnLocks: Object.fromEntries(Object.entries(states.waitingOnLocks).map(([lock, count]) => [lock, count / n])),
        waitingOnCommitWrites: states.waitingOnCommitWrites / n,
        idle: states.idle / n,
      };
    },
  };
}

/** The states as a line of the bench's report. */
export function sessionLine(s: SessionStates): string {
  const locks = Object.entries(s.waitingOnLocks);
  const lockText = locks.length ? locks.map(([lock, n]) => `${n.toFixed(2)} (${lock})`).join(", ") : "0";
  return (
    `database sessions during the load, on average over ${s.samples} samples: running a statement ${s.running.toFixed(2)}, ` +
    `waiting on a lock ${lockText}, writing the log at commit ${s.waitingOnCommitWrites.toFixed(2)}, ` +
    `inside a transaction waiting for the service ${s.waitingForService.toFixed(2)}, idle ${s.idle.toFixed(2)}`
  );
}
