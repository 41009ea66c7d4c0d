import { ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { BUSY_CONNECTION_WARNING } from "./busy-connections";
import { PLATFORM_KEY } from "./harness";
import { startOptions } from "./start-options";
import { poolerSettingsFor } from "./test-database";

const MAIN = path.join(__dirname, "../../src/main.js");

/**
 * The service as a separate operating-system process on a PostgreSQL database, for tests that
 * prove nothing rests on one process's memory (races across processes, SIGTERM).
 */
export class ServiceProcess {
  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    readonly output: () => string,
  ) {}

  /** Starts the service on `databaseUrl`, or on an in-memory PGlite of its own when it is undefined. */
  static async start(databaseUrl: string | undefined, env: Record<string, string> = {}): Promise<ServiceProcess> {
    // Port 0, and the child tells which port it got: a port probed free here could be taken by another test's child meanwhile.
    // Where a statement went to a busy connection, pg's warning names it.
    const child = spawn(process.execPath, [...startOptions(databaseUrl), "--trace-deprecation", MAIN], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        LOG_LEVEL: "info",
        PORT: "0",
        DATABASE_URL: databaseUrl ?? "",
        DATA_DIR: "memory://",
        PLATFORM_API_KEY: PLATFORM_KEY,
        JWT_SECRET: "test-jwt-secret-that-is-long-enough-for-hs256",
        // A busy machine may keep a burst of calls (forty workers claiming) in line longer than the
        // default; the line's own tests set their limit.
        MAX_WAIT_IN_LINE_MS: "0",
        ...poolerSettingsFor(databaseUrl),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    // No deadline of its own: a busy machine may take long to start it, and the test's timeout still ends a hang.
    const port = await new Promise<number>((resolve, reject) => {
      child.on("message", (message: { listening?: number }) => {
        if (message.listening !== undefined) resolve(message.listening);
      });
      child.once("exit", () => reject(new Error(`service exited:\n${output}`)));
    });
    // The channel is not needed any more, and an open one would keep this process waiting at its end.
    child.disconnect();
    return new ServiceProcess(child, `http://127.0.0.1:${port}`, () => output);
  }

  /** Sends SIGTERM and resolves with the exit code; rejects when the process sent a statement on a busy pg connection. */
  async stop(): Promise<number | null> {
    const code =
      this.child.exitCode !== null
        ? this.child.exitCode
        : await new Promise<number | null>((resolve) => {
            this.child.once("exit", (exitCode) => resolve(exitCode));
            this.child.kill("SIGTERM");
          });
    const output = this.output();
    const busy = output.indexOf(BUSY_CONNECTION_WARNING);
    if (busy >= 0) throw new Error(`the service sent a statement on a busy pg connection:\n${output.slice(busy, busy + 3000)}`);
    return code;
  }
}
