import { setPriority } from "node:os";
import { RosterProblem } from "./roster-problem";
import { solveRoster } from "./roster-search";

/**
 * The search in a child process of its own, at the lowest scheduling priority: on a busy machine
 * the service's requests go first and the search takes what is left. The problem and limits come
 * in the first message; progress and the solution go back as messages. The parent stops it early by
 * ending the process; a search whose parent died stops at its next clock check.
 */
process.once("message", ({ problem, timeLimitMs, seed }: { problem: RosterProblem; timeLimitMs: number; seed: number }) => {
  setPriority(19);
  const parent = process.ppid;
  const solution = solveRoster(problem, {
    timeLimitMs,
    seed,
    shouldStop: () => process.ppid !== parent,
    onProgress: (progress) => process.send!({ progress }),
  });
  process.send!({ solution }, () => process.disconnect());
});
