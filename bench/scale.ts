import os from "node:os";
import { Client } from "pg";
import { loadConfig } from "../src/config";
import { ServiceProcess } from "../test/support/service-process";
import { load, loadLine, LoadResult, median, ROUNDS, SECONDS } from "./load";

/** The machine's load average (1, 5, 15 minutes): figures of a shared machine mean little without it. */
export const loadAverage = () =>
  `load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`;

async function queryOn<R>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition().catch(() => false))) await new Promise((resolve) => setTimeout(resolve, 200));
}

/** The rate limiter's cost per request: a small read with the default limits on and with them off, rounds alternating. */
export async function rateLimiterOverhead(url: string, env: Record<string, string>, organizationId: string, token: string): Promise<string> {
  const auth = { Authorization: `Bearer ${token}` };
  const defaults = loadConfig({});
  const limited = await ServiceProcess.start(url, {
    ...env,
    RATE_LIMIT_POINTS: String(defaults.rateLimitPoints),
    RATE_LIMIT_WINDOW_SECONDS: String(defaults.rateLimitWindowSeconds),
  });
  const unlimited = await ServiceProcess.start(url, env);
  const smallRead = `/api/organizations/${organizationId}/locations?limit=5`;
  const runs: Record<"on" | "off", LoadResult[]> = { on: [], off: [] };
  const before = loadAverage();
  for (let round = 0; round < ROUNDS; round++) {
    runs.on.push(await load(limited.child.pid!, { url: `${limited.url}${smallRead}`, headers: auth }));
    runs.off.push(await load(unlimited.child.pid!, { url: `${unlimited.url}${smallRead}`, headers: auth }));
  }
  await Promise.all([limited.stop(), unlimited.stop()]);
  const [on, off] = [median(runs.on), median(runs.off)];
  const store = env.REDIS_URL ? "Redis" : "PostgreSQL";
  return (
    `rate limiter (default limits, counters in ${store}), GET of 5 locations, median of ${ROUNDS} rounds of ${SECONDS} s: p50 ${on.p50} ms with, ${off.p50} ms without ` +
    `(goal: + ≤ 0.5 ms); ${on.rps} vs ${off.rps} req/s = ${((100 * on.rps) / off.rps).toFixed(0)} % (goal ≥ 95 %); 429 answers ${on.errors}; ` +
    `server CPU ${on.cpuMsPerRequest.toFixed(2)} vs ${off.cpuMsPerRequest.toFixed(2)} ms/req (${before} before, ${loadAverage()} after)`
  );
}

/**
 * Reads that may lag (the location-week list and a report) answered by a service on the primary
 * alone and by one with the replica (BENCH_REPLICA_URL, a streaming replica of DATABASE_URL's
 * server), rounds alternating. On one machine both servers share its cores: the figures show
 * what routing costs and that the replica answers, not the capacity a second machine adds.
 */
export async function replicaReads(
  url: string,
  replicaServer: string,
  env: Record<string, string>,
  token: string,
  reads: Record<string, { path: string; connections: number; amount?: number }>,
): Promise<string> {
  const replicaUrl = new URL(replicaServer);
  replicaUrl.pathname = new URL(url).pathname;
  const [{ position }] = await queryOn<{ position: string }>(url, "SELECT pg_current_wal_lsn()::text AS position");
  await until(async () => (await queryOn<{ ok: boolean }>(replicaUrl.toString(), "SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok", [position]))[0].ok);
  const primary = await ServiceProcess.start(url, env);
  const replica = await ServiceProcess.start(url, { ...env, DATABASE_REPLICA_URLS: replicaUrl.toString() });
  await until(async () => {
    const databases: { role: string; status: string }[] = (await (await fetch(`${replica.url}/readyz`)).json()).databases;
    return databases.some((d) => d.role === "replica" && d.status === "ok");
  });
  const auth = { Authorization: `Bearer ${token}` };
  const lines = [`reads that may lag, median of ${ROUNDS} rounds of ${SECONDS} s (${loadAverage()} before):`];
  for (const [name, { path, connections, amount }] of Object.entries(reads)) {
    const runs: Record<"primary" | "replica", LoadResult[]> = { primary: [], replica: [] };
    // A report takes seconds on a busy machine: a number of them is timed, each waited for, rather than a span.
    const options = { headers: auth, connections, timeout: 120, ...(amount ? { amount } : {}) };
    for (let round = 0; round < ROUNDS; round++) {
      runs.primary.push(await load(primary.child.pid!, { url: `${primary.url}${path}`, ...options }));
      runs.replica.push(await load(replica.child.pid!, { url: `${replica.url}${path}`, ...options }));
    }
    lines.push(
      `${name}, ${connections} connection(s)${amount ? `, ${amount} requests a round` : ""}:`,
      loadLine("  primary alone", median(runs.primary)),
      loadLine("  through the replica", median(runs.replica)),
    );
  }
  await Promise.all([primary.stop(), replica.stop()]);
  lines.push(`(${loadAverage()} after)`);
  return lines.join("\n");
}
