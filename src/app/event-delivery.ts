import type { Logger } from "pino";
import { EventFeed } from "../modules/events/event-feed";
import { WebhookDispatcher } from "../modules/webhooks/webhook-dispatcher";
import { ServiceDeps } from "../common/services";
import type { Services } from "./services";

export interface EventDelivery {
  feed: EventFeed;
  dispatcher: WebhookDispatcher;
  stop(): Promise<void>;
}

/**
 * Listens for committed events and sends webhooks, in every process whatever SCHEDULED_JOBS says:
 * delivery is claimed per attempt in the database, so any number of processes share it.
 */
export async function startEventDelivery(deps: ServiceDeps, services: Services, logger: Logger): Promise<EventDelivery> {
  const feed = new EventFeed(deps.db, deps.config.databaseUrl, logger);
  await feed.start();
  const dispatcher = new WebhookDispatcher(deps, services.events, logger);
  const wake = () => dispatcher.wake();
  feed.on("event", wake).on("gap", wake);
  dispatcher.start();
  return {
    feed,
    dispatcher,
    async stop() {
      await dispatcher.stop();
      await feed.close();
    },
  };
}
