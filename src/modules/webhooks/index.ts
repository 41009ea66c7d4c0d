/** The front door of webhook endpoints and their delivery: the only file other modules import. */
export { WebhookDispatcher } from "./webhook-dispatcher";
export { webhooksModule } from "./webhooks.module";
