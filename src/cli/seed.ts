import "reflect-metadata";
import { loadConfig } from "../config";
import { startRuntime } from "../app/runtime";
import { seedDemoOrganization } from "../app/demo-data";

/** Loads a demo organization into the configured database and prints a ready token. */
async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await startRuntime({ ...config, logLevel: "warn", scheduledJobs: false });
  try {
    const demo = await seedDemoOrganization(runtime.services, runtime.clock.now());
    console.log(`Demo organization "${demo.name}" (${demo.organizationId})`);
    console.log(`API key (keep it; shown once): ${demo.apiKey}`);
    console.log(`Bearer token (valid ${demo.expiresIn / 60} minutes; exchange the key again for a new one):\n${demo.token}`);
    console.log(`\nOpen http://localhost:${config.port}/graphql#token=${demo.token} (the part after # stays in the browser)`);
  } finally {
    await runtime.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
