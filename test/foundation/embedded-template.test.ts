import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../../src/config";
import { startRuntime } from "../../src/app/runtime";
import { EmbeddedTemplate } from "../../src/database/embedded-template";

const MIGRATIONS = path.join(__dirname, "../../migrations");
/** The embedded database's settings, which name its template with the migrations. */
const EMBEDDED_SETTINGS = ["shared_buffers = 8MB", "wal_buffers = 1MB"];

/** Starts the service on `dataDir` without a platform key or signing secret of its own, and answers what it kept in the database. */
async function startOn(dataDir: string): Promise<{ migrations: string[]; jwtSecret: string }> {
  const runtime = await startRuntime({ ...loadConfig({}), dataDir, logLevel: "silent", scheduledJobs: false, platformApiKey: undefined, jwtSecret: undefined });
  try {
    const migrations = (await runtime.db.query("SELECT name FROM schema_migrations ORDER BY id")).map((r: { name: string }) => r.name);
    const [{ value }] = await runtime.db.query("SELECT value FROM platform_settings WHERE key = 'jwt_secret'");
    return { migrations, jwtSecret: value };
  } finally {
    await runtime.close();
  }
}

describe("a new embedded data directory", () => {
  const root = mkdtempSync(path.join(tmpdir(), "wf-template-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("starts from the template of the current migrations, with every migration applied and secrets of its own", async () => {
    const first = await startOn(path.join(root, "first"));
    // The first start made the template, if no earlier one had.
    const template = EmbeddedTemplate.for(MIGRATIONS, EMBEDDED_SETTINGS);
    expect(template.serves(path.join(root, "any"))).toBe(true);
    expect(template.serves("memory://")).toBe(true);
    const second = await startOn(path.join(root, "second"));
    expect(existsSync(path.join(root, "second", "PG_VERSION"))).toBe(true);
    expect(second.migrations).toEqual(first.migrations);
    expect(second.migrations.length).toBeGreaterThan(10);
    // Nothing of a start's own is in the template: each directory generated its own signing secret.
    expect(second.jwtSecret).not.toBe(first.jwtSecret);
  });

  it("is made by the build's command, which keeps nothing else of its own", () => {
    const scratch = mkdtempSync(path.join(root, "tmp-"));
    const made = spawnSync(process.execPath, [path.join(__dirname, "../../src/cli/embedded-template.js")], {
      env: { ...process.env, TMPDIR: scratch, DATABASE_URL: "" },
      encoding: "utf8",
    });
    expect(made.status).toBe(0);
    expect(EmbeddedTemplate.for(MIGRATIONS, EMBEDDED_SETTINGS).serves(path.join(root, "any"))).toBe(true);
    // The data directory it migrated in, if it had to make the template, is gone.
    expect(readdirSync(scratch)).toEqual([]);
  });

  it("names the template for what made it: other embedded settings make another", () => {
    const current = EmbeddedTemplate.for(MIGRATIONS, EMBEDDED_SETTINGS);
    const otherSettings = EmbeddedTemplate.for(MIGRATIONS, ["shared_buffers = 32MB"]);
    expect(otherSettings.file).not.toBe(current.file);
  });
});
