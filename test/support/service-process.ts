import { ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { PLATFORM_KEY } from "./harness";

const MAIN = path.join(__dirname, "../../src/main.js");
/** The Node.js options `npm start` runs the service with (its heap limit), read from package.json so the two never differ. */
const START_OPTIONS = /\bnode ((?:--\S+ )*)dist\/src\/main\.js/.exec(JSON.parse(readFileSync(path.join(__dirname, "../../../package.json"), "utf8")).scripts.start)![1].split(" ").filter(Boolean);

/**
 * The service as a separate operating-system process on a PostgreSQL database, for tests that
 * prove nothing rests on one process's memory (races across processes, SIGTERM).
 */
export class ServiceProcess {
  private constructor(readonly child: ChildProcess, readonly url: string, readonly output: () => string) {}

  /** Starts the service on `databaseUrl`, or on an in-memory PGlite of its own when it is undefined. */
  static async start(databaseUrl: string | undefined, env: Record<string, string> = {}): Promise<ServiceProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, [...START_OPTIONS, MAIN], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        LOG_LEVEL: "info",
        PORT: String(port),
        DATABASE_URL: databaseUrl ?? "",
        DATA_DIR: "memory://",
        PLATFORM_API_KEY: PLATFORM_KEY,
        JWT_SECRET: "test-jwt-secret-that-is-long-enough-for-hs256",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    let exited = false;
    child.on("exit", () => (exited = true));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30000;
    for (;;) {
      if (exited) throw new Error(`service exited:\n${output}`);
      if (Date.now() > deadline) throw new Error(`service did not start:\n${output}`);
      const up = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return new ServiceProcess(child, url, () => output);
  }

  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null> {
    if (this.child.exitCode !== null) return Promise.resolve(this.child.exitCode);
    return new Promise((resolve) => {
      this.child.once("exit", (code) => resolve(code));
      this.child.kill("SIGTERM");
    });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
