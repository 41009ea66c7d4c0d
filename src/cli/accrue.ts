import "reflect-metadata";
import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { startRuntime } from "../app/runtime";

/**
 * Applies the time-off accruals due up to a date, for back-filling:
 * `npm run accrue -- --until 2026-12-31 [--organization ID]`. Repeating it adds nothing.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { until: { type: "string" }, organization: { type: "string" } } });
  if (!values.until) throw new Error("Usage: npm run accrue -- --until YYYY-MM-DD [--organization ID]");
  const runtime = await startRuntime({ ...loadConfig(), logLevel: "warn", scheduledJobs: false });
  try {
    const summary = await runtime.services.timeOffAccruals.accrue(values.organization ?? "all", values.until);
    console.log(`Accrued up to ${values.until}: ${summary.entries} ledger row(s) added over ${summary.workerPolicies} worker policies`);
  } finally {
    await runtime.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
