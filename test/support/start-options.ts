import { readFileSync } from "node:fs";
import path from "node:path";

/** The Node.js options `npm start` runs the service with (heap sizes, WebAssembly tiering), read from package.json so the two never differ. */
export const START_OPTIONS = /\bnode ((?:--\S+ )*)scripts\/start\.mjs/
  .exec(JSON.parse(readFileSync(path.join(__dirname, "../../../package.json"), "utf8")).scripts.start)![1]
  .split(" ")
  .filter(Boolean);
