import { ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { PLATFORM_KEY } from "./harness";

const MAIN = path.join(__dirname, "../../src/main.js");

/**
 * The service as a separate operating-system process on a PostgreSQL database, for tests that
 * prove nothing rests on one process's memory (races across processes, SIGTERM).
 */
export class ServiceProcess {
  private constructor(readonly child: ChildProcess, readonly url: string, readonly output: () => string) {}

  /** Starts the service on `databaseUrl`, or on an in-memory PGlite of its own when it is undefined. */
  static async start(databaseUrl: string | undefined, env: Record<string, string> = {}): Promise<ServiceProcess> {
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        LOG_LEVEL: "info",
        PORT: "0",
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
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`service did not start:\n${output}`)), 30000);
      const check = () => {
        const m = /listening on (http:\/\/localhost:\d+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      };
      child.stdout!.on("data", check);
      child.on("exit", (code) => reject(new Error(`service exited with ${code}:\n${output}`)));
    });
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
