import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PLATFORM_KEY } from "../support/harness";
import { ServiceProcess } from "../support/service-process";

const CLI = path.join(__dirname, "../../src/cli");

/** Runs a command of the project on DATA_DIR and answers its exit code and output. */
function command(name: string, dataDir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      // accrue needs its date before it opens anything
      [path.join(CLI, `${name}.js`), ...(name === "accrue" ? ["--until", "2026-12-31"] : [])],
      {
        env: {
          ...process.env,
          NODE_ENV: "test",
          DATABASE_URL: "",
          DATA_DIR: dataDir,
          PLATFORM_API_KEY: PLATFORM_KEY,
          JWT_SECRET: "test-jwt-secret-that-is-long-enough-for-hs256",
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

// Each test starts processes that create and migrate a new embedded database: slow on a busy machine.
const PROCESS_TESTS_MS = 600_000;

describe("one process at a time on an embedded database directory", () => {
  const root = mkdtempSync(path.join(tmpdir(), "wf-lock-"));
  const dataDir = path.join(root, "data");
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it(
    "refuses seed, migrate and accrue, and a second service, while the service holds DATA_DIR, naming its process",
    async () => {
      const service = await ServiceProcess.start(undefined, { DATA_DIR: dataDir });
      try {
        expect(existsSync(`${dataDir}.lock`)).toBe(true);
        for (const name of ["seed", "migrate", "accrue"]) {
          const refused = await command(name, dataDir);
          expect(refused.code).not.toBe(0);
          expect(refused.output).toContain(`DATA_DIR ${dataDir} is in use by process ${service.child.pid}`);
        }
        await expect(ServiceProcess.start(undefined, { DATA_DIR: dataDir })).rejects.toThrow(`in use by process ${service.child.pid}`);
        // The service still answers: nothing was written behind its back.
        expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      } finally {
        expect(await service.stop()).toBe(0);
      }
      expect(existsSync(`${dataDir}.lock`)).toBe(false);
      expect((await command("migrate", dataDir)).code).toBe(0);
    },
    PROCESS_TESTS_MS,
  );

  it(
    "takes over the lock of a process that is gone",
    async () => {
      const gone = spawn(process.execPath, ["-e", ""]);
      await new Promise((resolve) => gone.once("exit", resolve));
      writeFileSync(`${dataDir}.lock`, JSON.stringify({ pid: gone.pid, command: "dist/src/main.js", since: "2026-03-02T12:00:00.000Z" }));
      const migrated = await command("migrate", dataDir);
      expect(migrated.output).not.toContain("in use");
      expect(migrated.code).toBe(0);
      expect(existsSync(`${dataDir}.lock`)).toBe(false);
    },
    PROCESS_TESTS_MS,
  );
});
