import "reflect-metadata";
import path from "node:path";
import { loadConfig } from "./config";
import { PGliteDatabase } from "./database/pglite-pool";

async function main(): Promise<void> {
  const config = loadConfig();
  // The embedded database starts in its thread while the rest of the service's modules load (most of a start, each).
  if (!config.databaseUrl) PGliteDatabase.openEarly(config.dataDir, path.join(__dirname, "..", "migrations"));
  const { startRuntime } = await import("./app/runtime");
  const runtime = await startRuntime(config);
  const { logger, server } = runtime;
  await new Promise<void>((resolve) => server.listen(config.port, resolve));
  const port = (server.address() as { port: number }).port;
  logger.info(
    { port, database: config.databaseUrl ? "postgresql" : `pglite:${config.dataDir}` },
    `listening on http://localhost:${port} (GraphiQL at /graphql)`,
  );
  // A parent process that started this one with PORT=0 (tests, the bench) learns the port the system gave.
  process.send?.({ listening: port });

  // On SIGTERM: refuse new connections, finish the requests in flight, close the pool, exit 0.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      logger.error("in-flight requests did not finish in 25 s; exiting");
      process.exit(1);
    }, 25_000);
    force.unref();
    runtime.close().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
