import { ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PLATFORM_KEY } from "../support/harness";
import { START_OPTIONS } from "../support/start-options";
import { createTestDatabase } from "../support/test-database";
import { ROOT } from "../support/project-root";

const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

/** `node <npm start's options> scripts/start.mjs` on `databaseUrl` (the embedded database when empty), once it answers: the script's process and the port. */
async function start(databaseUrl: string): Promise<{ launched: ChildProcess; port: number }> {
  const launched = spawn(process.execPath, [...START_OPTIONS, path.join(ROOT, "scripts/start.mjs")], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: "memory://",
      PORT: "0",
      LOG_LEVEL: "info",
      NODE_ENV: "test",
      SCHEDULED_JOBS: "off",
      PLATFORM_API_KEY: PLATFORM_KEY,
      JWT_SECRET: "test-jwt-secret-that-is-long-enough-for-hs256",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  launched.stderr!.on("data", (d) => (output += d));
  const port = await new Promise<number>((resolve, reject) => {
    launched.stdout!.on("data", (d) => {
      output += d;
      const listening = /listening on http:\/\/localhost:(\d+)/.exec(output);
      if (listening) resolve(Number(listening[1]));
    });
    launched.once("exit", () => reject(new Error(`npm start's script exited:\n${output}`)));
  });
  return { launched, port };
}

/** The Node.js options of a running process, from its command line. */
function nodeOptionsOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8")
    .split("\0")
    .filter((arg) => arg.startsWith("--"));
}

/** The processes `pid` started, from /proc (Linux). */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

describe("npm start's script", () => {
  onPostgres("runs the service on a PostgreSQL server in a process of its own with the server's options, and stops it on SIGTERM", async () => {
    const db = await createTestDatabase();
    try {
      const { launched, port } = await start(db.url!);
      const [service] = childrenOf(launched.pid!);
      expect(nodeOptionsOf(service)).toContain("--max-semi-space-size=16");
      expect(nodeOptionsOf(service)).not.toContain("--max-semi-space-size=8");
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      launched.kill("SIGTERM");
      expect(await exitOf(launched)).toBe(0);
      expect(() => readFileSync(`/proc/${service}/cmdline`)).toThrow();
    } finally {
      await db.drop();
    }
  });

  it("runs the service on the embedded database in the script's own process, with npm start's options", async () => {
    const { launched, port } = await start("");
    expect(childrenOf(launched.pid!)).toEqual([]);
    expect(nodeOptionsOf(launched.pid!)).toContain("--max-semi-space-size=8");
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    launched.kill("SIGTERM");
    expect(await exitOf(launched)).toBe(0);
  });
});
