import http from "node:http";
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

/** One statement on a connection of its own to `url`. */
export async function queryOn<R>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
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

/** The middle of some figures. */
const middle = (figures: number[]) => [...figures].sort((x, y) => x - y)[Math.floor(figures.length / 2)];

/** Milliseconds each call of one client took, made one after another on one kept-alive connection for `seconds`. */
async function oneByOne(url: string, headers: Record<string, string>, seconds: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const ends = Date.now() + seconds * 1000;
  try {
    while (Date.now() < ends) {
      const started = process.hrtime.bigint();
      await new Promise<void>((resolve, reject) => {
        http
          .get(url, { headers, agent }, (res) => {
            res.resume();
            res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${res.statusCode}`))));
          })
          .on("error", reject);
      });
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  } finally {
    agent.destroy();
  }
  return times;
}

/**
 * The rate limiter's cost per request on the location-week list (`listPath`, one point a call):
 * a service with the default limits on and one with them off, both warmed up alike, measured in
 * turns, the one going first alternating; each figure is the median of its rounds. Every round
 * starts a pair of processes of its own: one process's compiled code and heap can make it a few
 * per cent faster or slower than another running the same code for as long as it lives, which
 * with one process each way was counted against (or for) the limiter. The latency it adds is
 * measured apart, with one client calling one call at a time: under load a call's median is mostly
 * its wait behind the others, which moves with the throughput by far more than half a millisecond.
 */
export async function rateLimiterOverhead(url: string, env: Record<string, string>, listPath: string, token: string): Promise<string> {
  const auth = { Authorization: `Bearer ${token}` };
  const defaults = loadConfig({});
  const envOf = {
    on: { ...env, RATE_LIMIT_POINTS: String(defaults.rateLimitPoints), RATE_LIMIT_WINDOW_SECONDS: String(defaults.rateLimitWindowSeconds) },
    off: env,
  };
  const runs: Record<"on" | "off", LoadResult[]> = { on: [], off: [] };
  const alone: Record<"on" | "off", number[]> = { on: [], off: [] };
  const before = loadAverage();
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? (["off", "on"] as const) : (["on", "off"] as const);
    const services = { on: await ServiceProcess.start(url, envOf.on), off: await ServiceProcess.start(url, envOf.off) };
    try {
      const run = (which: "on" | "off", duration?: number) =>
        load(services[which].child.pid!, { url: `${services[which].url}${listPath}`, headers: auth, ...(duration ? { duration } : {}) });
      // The same warm-up for both (compiled code, caches, the first leases), not counted.
      for (const which of order) await run(which, 3);
      for (const which of order) runs[which].push(await run(which));
      for (const which of order) alone[which].push(...(await oneByOne(`${services[which].url}${listPath}`, auth, SECONDS / 2)));
    } finally {
      await Promise.all([services.on.stop(), services.off.stop()]);
    }
  }
  const [aloneOn, aloneOff] = [alone.on, alone.off].map((times) => middle(times));
  const [on, off] = [runs.on, runs.off].map((r) => ({
    rps: middle(r.map((x) => x.rps)),
    p50: middle(r.map((x) => x.p50)),
    cpu: middle(r.map((x) => x.cpuMsPerRequest)),
    errors: r.reduce((n, x) => n + x.errors, 0),
  }));
  const store = env.REDIS_URL ? "Redis" : "PostgreSQL";
  return (
    `rate limiter (default limits, counters in ${store}), location-week list, medians of ${ROUNDS} rounds of ${SECONDS} s each way (alternating, each round on a new pair of processes after the same warm-up): ` +
    `${on.rps} req/s with, ${off.rps} without = ${((100 * on.rps) / off.rps).toFixed(0)} % (goal ≥ 95 %); p50 ${on.p50} ms with, ${off.p50} ms without; ` +
    `one call at a time (${alone.on.length} and ${alone.off.length} calls): p50 ${aloneOn.toFixed(2)} ms with, ${aloneOff.toFixed(2)} ms without = ` +
    `${aloneOn - aloneOff >= 0 ? "+" : "−"}${Math.abs(aloneOn - aloneOff).toFixed(2)} ms (goal + ≤ 0.5 ms); ` +
    `errors or 429 answers ${on.errors} with, ${off.errors} without; server CPU ${on.cpu.toFixed(2)} vs ${off.cpu.toFixed(2)} ms/req; ` +
    `rounds with (req/s): ${runs.on.map((r) => r.rps).join(" ")}, without: ${runs.off.map((r) => r.rps).join(" ")} (${before} before, ${loadAverage()} after)`
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
