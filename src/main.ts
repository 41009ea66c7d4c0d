import "reflect-metadata";
import { loadConfig } from "./config";
import { startRuntime } from "./app/runtime";

async function main(): Promise<void> {
  const config = loadConfig();
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
