// `npm start`: compiles what changed since the last build (see build.mjs), then runs the service in
// this same process: a Node process of its own for the check cost about a tenth of every start.
import { createRequire } from "node:module";
import { build, isStale } from "./build.mjs";

if (isStale()) build();
createRequire(import.meta.url)("../dist/src/main.js");
