import "reflect-metadata";
import type { Logger } from "pino";
import { Clock, systemClock } from "../common/clock";
import { Config } from "../config";
import { ApplicationDataSource, migrate, openDatabase } from "../database/data-source";
import { ReadRouting } from "../database/read-routing";
import { UnitOfWork } from "../database/unit-of-work";
import { createApp, RunningApp } from "../http/app";
import { drainHttpServer } from "../http/drain";
import { LiveSubscriptions, serveSubscriptions } from "../http/subscriptions";
import { idempotencyKeyPruning } from "../http/idempotency";
import { RateLimits } from "../http/rate-limits";
import { createLogger } from "../http/logger";
import { PlatformSecrets } from "../modules/organizations";
import { compileRoutes } from "../rest/shim";
import { EventDelivery, startEventDelivery } from "./event-delivery";
import { renderEventResources } from "./event-snapshots";
import { startJobs } from "./jobs";
import { graphqlSchema, rawRestRoutes, restRoutes, scheduledJobs } from "./modules";
import { createServices, Services } from "./services";

export interface Runtime extends RunningApp {
  config: Config;
  db: ApplicationDataSource;
  unitOfWork: UnitOfWork;
  services: Services;
  logger: Logger;
  clock: Clock;
  events: EventDelivery;
  subscriptions: LiveSubscriptions;
  /** Where reads that may lag go: a healthy replica, or the primary. */
  reads: ReadRouting;
  /** Stops taking requests, lets those in flight finish, then closes the database. */
  close(): Promise<void>;
}

/** Opens the database, applies migrations and builds the HTTP application (not yet listening). */
export async function startRuntime(config: Config, options: { clock?: Clock; logger?: Logger } = {}): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const db = await openDatabase(config);
  try {
    const { applied, warning } = await migrate(db, config);
    if (applied.length) logger.info({ migrations: applied }, "applied migrations");
    if (warning) logger.warn(warning);
    const unitOfWork = new UnitOfWork(db);
    const platform = await PlatformSecrets.load(unitOfWork, config, (message) => logger.warn(message));
    const reads = await ReadRouting.start(db, config, (health) =>
      logger[health.status === "ok" ? "info" : "warn"]({ database: health }, "replica state changed"),
    );
    const deps = { db, unitOfWork, clock, config, reads };
    const services = createServices({ ...deps, platform });
    // Every REST path's operation, parsed once (validated and compiled at its first call): served by the HTTP app, and the GETs render events' resources.
    const routes = compileRoutes(graphqlSchema(), restRoutes);
    renderEventResources(unitOfWork, { routes, services, logger });
    const rateLimits = RateLimits.open(config);
    const running = await createApp({
      db,
      unitOfWork,
      services,
      api: { schema: graphqlSchema(), compiled: routes, rawRestRoutes },
      logger,
      rateLimits,
      reads,
      timeouts: config,
      concurrentRequests: config.concurrentRequests,
      maxWaitInLineMs: config.maxWaitInLineMs,
      trustProxy: config.trustProxy,
    });
    const events = await startEventDelivery(deps, services, logger);
    const subscriptions = serveSubscriptions({
      server: running.server,
      schema: graphqlSchema(),
      documents: running.documents,
      services,
      stream: events.stream,
      logger,
      rateLimits,
      clock,
      limits: config,
      trustProxy: running.trustProxy,
    });
    const jobs = config.scheduledJobs ? startJobs([...scheduledJobs(services), idempotencyKeyPruning(unitOfWork)], logger) : undefined;
    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        await jobs?.stop();
        // Open WebSockets would hold the server open: subscribers are told the server is going away first.
        await subscriptions.close();
        await drainHttpServer(running.server);
        await running.apollo.stop();
        await events.stop();
        await rateLimits.close();
        await reads.close();
        await db.destroy();
      })());
    return { ...running, config, db, unitOfWork, services, logger, clock, events, subscriptions, reads, close };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
