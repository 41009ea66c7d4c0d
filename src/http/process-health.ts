import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { statementsSent } from "../database/statement-count";
import type { Percentiles, RequestsInProcess, RequestTimes } from "./request-admission";

/** How the process has kept up since it started: its event loop's delay and the time garbage collection took. */
export interface ProcessHealth {
  eventLoopDelayMs: Percentiles;
  /** Share of the time since start spent collecting garbage, in percent. */
  garbageCollectionPercent: number;
  uptimeSeconds: number;
  /** The API's requests this process is working on now, and those waiting for their turn (CONCURRENT_REQUESTS). */
  requests: RequestsInProcess;
  /** Where its requests spent their time since it started: before their turn, in line, at work. */
  requestTimes: RequestTimes;
  /** SQL statements it has sent to its databases since it started (its jobs' too). */
  sqlStatements: number;
}

/**
 * Watches the event loop's delay (how late a timer fires: the time a ready answer waits behind
 * other work in this process) and garbage collection, for /healthz: what a slow answer spent its
 * time on when the database was not the cause.
 */
export function watchProcessHealth(line: { inProcess: () => RequestsInProcess; times: () => RequestTimes }): { read(): ProcessHealth; stop(): void } {
  const resolutionMs = 10;
  const delay = monitorEventLoopDelay({ resolution: resolutionMs });
  delay.enable();
  let collecting = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) collecting += entry.duration;
  });
  gc.observe({ entryTypes: ["gc"] });
  const started = performance.now();
  const ms = (ns: number) => Math.round(ns / 1e5) / 10;
  // The histogram holds the time between the timer's turns, its own interval included: an idle loop reads 10 ms.
  const late = (ns: number) => ms(Math.max(0, ns - resolutionMs * 1e6));
  return {
    read: () => ({
      eventLoopDelayMs: { p50: late(delay.percentile(50)), p99: late(delay.percentile(99)), max: late(delay.max) },
      garbageCollectionPercent: Math.round((1000 * collecting) / (performance.now() - started)) / 10,
      uptimeSeconds: Math.round(process.uptime()),
      requests: line.inProcess(),
      requestTimes: line.times(),
      sqlStatements: statementsSent(),
    }),
    stop: () => {
      delay.disable();
      gc.disconnect();
    },
  };
}
