import { readFileSync } from "node:fs";
import autocannon from "autocannon";

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time the server process spent per request: steadier than requests per second on a shared machine. */
  cpuMsPerRequest: number;
}

/** How long each load runs (BENCH_SECONDS) and how many rounds of it (BENCH_ROUNDS). */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** Linux counts process CPU time in ticks of 1/100 s (USER_HZ). */
const CLOCK_TICKS = 100;

/** User and system CPU time of a process so far, in milliseconds. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

export async function load(serverPid: number, options: autocannon.Options): Promise<LoadResult> {
  const cpuBefore = cpuMs(serverPid);
  const result = await autocannon({ connections: 10, duration: SECONDS, ...options });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpuMsPerRequest: (cpuMs(serverPid) - cpuBefore) / Math.max(1, result.requests.total),
  };
}

/** The p-th percentile (0–100) of the values. */
export const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

/** The run with the median requests per second of several. */
export function median(runs: LoadResult[]): LoadResult {
  return [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)];
}

export function loadLine(name: string, r: LoadResult): string {
  return `${name.padEnd(34)} ${String(r.rps).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   errors ${r.errors}   server CPU ${r.cpuMsPerRequest.toFixed(2)} ms/req`;
}
