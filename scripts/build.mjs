// Compiles the TypeScript sources to dist/, then makes the embedded database's template for the
// compiled migrations. With --if-stale it first compares modification times and compiles only when
// a source is newer than the last good build (a few milliseconds when nothing changed); `npm start`
// (start.mjs) does the same in the service's own process.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const STAMP = path.join(root, "dist", ".build-stamp");
// What tsconfig.json compiles, and the files that change how it compiles.
const SOURCES = ["src", "test", "migrations", "bench", "ormconfig.ts", "tsconfig.json", "package-lock.json"];

function newestChange(entry) {
  const stat = statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestChange(path.join(entry, name)));
  return newest;
}

export function isStale() {
  const built = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return SOURCES.some((source) => newestChange(path.join(root, source)) > built);
}

/** Compiles, makes the template, and stamps the build; exits the process with the failing step's status. */
export function build() {
  const started = Date.now();
  const tsc = spawnSync(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", path.join(root, "tsconfig.json")], {
    stdio: "inherit",
  });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // The embedded database's template for these migrations, so that a first start does not create one.
  const template = spawnSync(process.execPath, [path.join(root, "dist", "src", "cli", "embedded-template.js")], { stdio: "inherit" });
  if (template.status !== 0) process.exit(template.status ?? 1);
  writeFileSync(STAMP, `${new Date(started).toISOString()}\n`);
  console.error(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// Run as a script (not imported by start.mjs).
if (process.argv[1] === fileURLToPath(import.meta.url) && !(process.argv.includes("--if-stale") && !isStale())) build();
