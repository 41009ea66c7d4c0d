import type { DomainModule } from "../module";
import { EventSubscriptionResolver } from "./event-subscription.resolver";
import { EventResolver } from "./event.resolver";
import { eventRoutes } from "./event.routes";
import { EventService } from "./event.service";

declare module "../../common/services" {
  interface Services {
    events: EventService;
  }
}

/** The organization's event log, read as a feed and pruned in the background. */
export const eventsModule: DomainModule = {
  services: (deps) => ({ events: new EventService(deps) }),
  resolvers: [EventResolver, EventSubscriptionResolver],
  restRoutes: eventRoutes,
  jobs: (services) => [services.events.job],
};
