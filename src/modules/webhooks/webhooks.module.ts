import type { DomainModule } from "../module";
import { WebhookResolver } from "./webhook.resolver";
import { webhookRoutes } from "./webhook.routes";
import { WebhookService } from "./webhook.service";

declare module "../../common/services" {
  interface Services {
    webhooks: WebhookService;
  }
}

/** Webhook endpoints and their deliveries. */
export const webhooksModule: DomainModule = {
  services: (deps) => ({ webhooks: new WebhookService(deps) }),
  resolvers: [WebhookResolver],
  restRoutes: webhookRoutes,
  jobs: (services) => [services.webhooks.pingPruning],
};
