// `npm start`: compiles what changed since the last build (see build.mjs), then runs the service.
//
// On the embedded database it runs in this same process: a Node process of its own for the check
// cost about a tenth of every start. On a PostgreSQL server (DATABASE_URL) it runs in a process of
// its own with package.json's `config.serverNodeOptions` in place of the same options of this one: a
// larger young generation, which the busiest hour's answers need and an embedded service's idle
// memory has no room for (see the README). This process then only passes signals on and ends with it.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";
import { build, isStale } from "./build.mjs";
import nodeOptions from "./node-options.cjs";

const MAIN = fileURLToPath(new URL("../dist/src/main.js", import.meta.url));

if (isStale()) build();
if (process.env.DATABASE_URL) {
  const service = spawn(process.execPath, [...nodeOptions.withServerOptions(process.execArgv), MAIN], { stdio: "inherit" });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => service.kill(signal));
  service.on("exit", (code, signal) => process.exit(code ?? 128 + constants.signals[signal]));
} else {
  createRequire(import.meta.url)(MAIN);
}
