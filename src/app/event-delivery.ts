import type { Logger } from "pino";
import { EventFeed, EventStream } from "../modules/events";
import type { CommittedEvent } from "../modules/events";
import { WebhookDispatcher } from "../modules/webhooks";
import { ServiceDeps } from "../common/services";
import type { Services } from "./services";

export interface EventDelivery {
  feed: EventFeed;
  /** Committed events for this process's live subscribers. */
  stream: EventStream;
  dispatcher: WebhookDispatcher;
  stop(): Promise<void>;
}

/**
 * Listens for committed events, hands them to live subscribers and sends webhooks, in every
 * process whatever SCHEDULED_JOBS says: delivery is claimed per attempt in the database, so any
 * number of processes share it.
 */
export async function startEventDelivery(deps: ServiceDeps, services: Services, logger: Logger): Promise<EventDelivery> {
  // LISTEN holds a session: through a pooler in transaction mode it would hear nothing, so it may have a direct URL of its own.
  const feed = new EventFeed(deps.db, deps.config.databaseListenUrl ?? deps.config.databaseUrl, logger);
  await feed.start();
  const stream = new EventStream(feed, services.events, logger);
  const dispatcher = new WebhookDispatcher(deps, services.events, logger);
  // Only an event that made deliveries gives the delivery worker something to claim.
  feed.on("event", (event: CommittedEvent) => event.deliveries !== 0 && dispatcher.wake()).on("gap", () => dispatcher.wake());
  dispatcher.start();
  return {
    feed,
    stream,
    dispatcher,
    async stop() {
      stream.close();
      await dispatcher.stop();
      await feed.close();
    },
  };
}
