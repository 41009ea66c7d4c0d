import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { percentile } from "./load";

const ROOT = path.join(__dirname, "../..");

/** A port free at this moment (a bench, alone on its ports, can afford the gap). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** The process running the service (scripts/start.mjs) in process group `group` (npm runs it through a shell). */
function servicePid(group: number): number | undefined {
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      // pid (comm) state ppid pgrp …
      const pgrp = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ")[2]);
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      // The node process itself, not the shell whose command line names it.
      if (pgrp === group && path.basename(argv[0]) === "node" && argv.includes("scripts/start.mjs")) return Number(entry);
    } catch {
      // Exited meanwhile.
    }
  }
  return undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function residentMb(pid: number): number {
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024);
}

/**
 * `npm start` on the embedded database in `dataDir`: milliseconds to the first 200 of /healthz, then its
 * RSS once a second for `idleSeconds`. An idle service still works (the webhook dispatcher's poll, V8's
 * compilers and collector): its memory moves for a while after the first answer.
 */
async function startOnce(dataDir: string, idleSeconds: number): Promise<{ ms: number; idleRssMb: number[] }> {
  const port = await freePort();
  const started = process.hrtime.bigint();
  const npm = spawn("npm", ["start", "--silent"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: "warn",
      PLATFORM_API_KEY: "wfp_bench_platform_key",
      SCHEDULED_JOBS: "off",
    },
    stdio: ["ignore", "pipe", "pipe"],
    // A group of its own: npm, its shell and the service stop together.
    detached: true,
  });
  let output = "";
  npm.stdout!.on("data", (d) => (output += d));
  npm.stderr!.on("data", (d) => (output += d));
  try {
    for (;;) {
      if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}:\n${output}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const pid = servicePid(npm.pid!);
    const idleRssMb: number[] = [];
    for (let second = 0; second < idleSeconds; second++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      idleRssMb.push(pid ? residentMb(pid) : NaN);
    }
    return { ms, idleRssMb };
  } finally {
    const service = servicePid(npm.pid!);
    const exited = npm.exitCode === null ? new Promise((resolve) => npm.once("exit", resolve)) : undefined;
    try {
      process.kill(-npm.pid!, "SIGTERM");
    } catch {
      // The group is gone already.
    }
    await exited;
    // The service finishes its shutdown (and gives the data directory back) before the next start.
    while (service !== undefined && isRunning(service)) await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** How long the idle service's memory is watched. */
const IDLE_SECONDS = 30;

/** How many starts each figure is the median of: a start's time moves by a fifth from one to the next on a busy machine. */
const STARTS = 5;

/**
 * Start to first answer of `npm start` on the embedded database: on a new data directory (it is
 * created and migrated) and on the same directory again, each the median of STARTS starts; and the
 * last idle service's resident memory.
 */
export async function measureFirstAnswer(): Promise<string> {
  const root = mkdtempSync(path.join(tmpdir(), "wf-bench-start-"));
  try {
    const fresh: number[] = [];
    const existing: number[] = [];
    let rss: number[] = [];
    for (let start = 0; start < STARTS; start++) {
      const dataDir = path.join(root, `data-${start}`);
      fresh.push((await startOnce(dataDir, 0)).ms);
      const again = await startOnce(dataDir, start === STARTS - 1 ? IDLE_SECONDS : 0);
      existing.push(again.ms);
      rss = again.idleRssMb;
    }
    const seconds = (times: number[]) =>
      `${(percentile(times, 50) / 1000).toFixed(2)} s (${(Math.min(...times) / 1000).toFixed(2)}–${(Math.max(...times) / 1000).toFixed(2)})`;
    return (
      `npm start to first answer (PGlite), median of ${STARTS}: new data directory ${seconds(fresh)} (goal < 4 s), ` +
      `existing ${seconds(existing)} (goal < 2 s); idle RSS ${rss[2]} MB 3 s after, ${rss[IDLE_SECONDS - 1]} MB ${IDLE_SECONDS} s after, ` +
      `at most ${Math.max(...rss)} MB between (goal < 200 MB); ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")} load average`
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
