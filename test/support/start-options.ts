import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./project-root";

/** The Node.js options `npm start` runs the embedded service with (heap sizes, WebAssembly tiering), read from package.json so the two never differ. */
export const START_OPTIONS: string[] = /\bnode ((?:--\S+ )*)scripts\/start\.mjs/
  .exec(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start)![1]
  .split(" ")
  .filter(Boolean);

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { withServerOptions } = require(path.join(ROOT, "scripts/node-options.cjs")) as { withServerOptions: (options: string[]) => string[] };

/** The options `npm start` runs the service with on `databaseUrl`: on a PostgreSQL server, package.json's `config.serverNodeOptions` in place of those of the same name (scripts/start.mjs). */
export function startOptions(databaseUrl: string | undefined): string[] {
  return databaseUrl ? withServerOptions(START_OPTIONS) : START_OPTIONS;
}
