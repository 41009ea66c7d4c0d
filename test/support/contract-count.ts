import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Jest's globalSetup: a fresh folder where each test file writes how many REST answers it validated. */
export async function setup(): Promise<void> {
  process.env.REST_CONTRACT_DIR = mkdtempSync(path.join(tmpdir(), "rest-contract-"));
}

/** Jest's globalTeardown: the sum, printed. */
export async function teardown(): Promise<void> {
  const dir = process.env.REST_CONTRACT_DIR;
  if (!dir) return;
  const counts = readdirSync(dir).flatMap((file) => readFileSync(path.join(dir, file), "utf8").split("\n").filter(Boolean).map(Number));
  console.log(`\nREST answers validated against the OpenAPI document: ${counts.reduce((a, b) => a + b, 0)} (in ${counts.length} test files)`);
  rmSync(dir, { recursive: true, force: true });
}
