import type { Logger } from "pino";
import type { ScheduledJob } from "../common/services";

export interface RunningJobs {
  /** Stops the timers and waits for runs in progress. */
  stop(): Promise<void>;
}

/**
 * Runs each job once at start and then every interval. A job never overlaps itself in this
 * process; running in several processes at once is each job's own concern (they are idempotent).
 */
export function startJobs(jobs: ScheduledJob[], logger: Logger): RunningJobs {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  let stopped = false;
  for (const job of jobs) {
    let busy = false;
    const tick = () => {
      if (busy || stopped) return;
      busy = true;
      const run = job
        .run()
        .then(
          (result) => logger.info({ job: job.name, result }, "scheduled job done"),
          (error) => logger.error({ job: job.name, err: error }, "scheduled job failed"),
        )
        .finally(() => {
          busy = false;
          running.delete(run);
        });
      running.add(run);
    };
    timers.push(setTimeout(tick, 0).unref(), setInterval(tick, job.intervalMs).unref());
  }
  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(running);
    },
  };
}
