import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ServiceProcess } from "../support/service-process";

// Each test starts a service process that creates and migrates a new embedded database: slow on a busy machine.
const PROCESS_TESTS_MS = 600_000;

/** Every file and directory under `dir` whose mode lets a user other than the owner in. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if ((statSync(full).mode & 0o077) !== 0) found.push(`${full} ${(statSync(full).mode & 0o777).toString(8)}`);
    if (entry.isDirectory()) found.push(...openToOthers(full));
  }
  return found;
}

describe("the embedded database's files are the service's only", () => {
  const root = mkdtempSync(path.join(tmpdir(), "wf-modes-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it(
    "creates DATA_DIR 0700 with no file others may read, and writes a generated platform key to a new 0600 file, never through a link",
    async () => {
      const dataDir = path.join(root, "data");
      const elsewhere = path.join(root, "elsewhere");
      writeFileSync(elsewhere, "not the key\n", { mode: 0o644 });
      symlinkSync(elsewhere, `${dataDir}.platform-key`);
      const service = await ServiceProcess.start(undefined, { DATA_DIR: dataDir, PLATFORM_API_KEY: "" });
      try {
        // Files written after the start (an organization's rows, the write-ahead log) too.
        const created = await fetch(`${service.url}/api/organizations`, {
          method: "POST",
          headers: { authorization: `Bearer ${readFileSync(`${dataDir}.platform-key`, "utf8").trim()}`, "content-type": "application/json" },
          body: JSON.stringify({ name: "Modes" }),
        });
        expect(created.status).toBe(201);
        expect(statSync(dataDir).mode & 0o777).toBe(0o700);
        expect(openToOthers(dataDir)).toEqual([]);
        const key = lstatSync(`${dataDir}.platform-key`);
        expect(key.isSymbolicLink()).toBe(false);
        expect(key.mode & 0o777).toBe(0o600);
        expect(readFileSync(`${dataDir}.platform-key`, "utf8")).toMatch(/^wfp_/);
        expect(readFileSync(elsewhere, "utf8")).toBe("not the key\n");
      } finally {
        await service.stop();
      }
    },
    PROCESS_TESTS_MS,
  );

  it(
    "refuses to start on a DATA_DIR others may enter, saying how to fix it",
    async () => {
      const dataDir = path.join(root, "shared");
      mkdirSync(dataDir);
      chmodSync(dataDir, 0o755);
      await expect(ServiceProcess.start(undefined, { DATA_DIR: dataDir })).rejects.toThrow(`chmod -R go-rwx ${dataDir}`);
    },
    PROCESS_TESTS_MS,
  );
});
