import "reflect-metadata";
import { setFlagsFromString } from "node:v8";
import { START_OPTIONS } from "./start-options";

process.env.NODE_ENV = "test";

// The embedded database runs as in the service, with its WebAssembly tiering budget (package.json's
// start script): with V8's default, each test file's PGlite sends its busiest functions to the
// optimizing compiler afresh (the timesheet tests took 6 % more CPU).
for (const option of START_OPTIONS.filter((o) => o.startsWith("--wasm-"))) setFlagsFromString(option);
