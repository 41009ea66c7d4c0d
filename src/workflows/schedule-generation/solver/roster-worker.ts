import { parentPort, workerData } from "node:worker_threads";
import { RosterProblem } from "./roster-problem";
import { solveRoster } from "./roster-search";

/**
 * The search in a worker thread: the problem and limits come in `workerData`, with a shared flag
 * the parent sets to stop early; progress and the solution go back as messages.
 */
const { problem, timeLimitMs, seed, stop } = workerData as { problem: RosterProblem; timeLimitMs: number; seed: number; stop: SharedArrayBuffer };
const flag = new Int32Array(stop);
const solution = solveRoster(problem, {
  timeLimitMs,
  seed,
  shouldStop: () => Atomics.load(flag, 0) === 1,
  onProgress: (progress) => parentPort!.postMessage({ progress }),
});
parentPort!.postMessage({ solution });
