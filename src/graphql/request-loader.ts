import type DataLoader from "dataloader";
import type { Actor } from "../auth/actor";
import type { Services } from "../common/services";
import { actorOf } from "./authorization";
import type { RequestContext } from "./context";

/**
 * A data loader made on first use in a request and kept for that request only: `batch` gets the
 * services, the caller and every key asked for in one tick, and answers in the keys' order.
 */
export function requestLoader<K, V>(
  name: string,
  batch: (services: Services, actor: Actor, keys: readonly K[]) => Promise<(V | Error)[]>,
): (ctx: RequestContext) => DataLoader<K, V> {
  return (ctx) => ctx.loaders.get<K, V>(name, (keys) => batch(ctx.services, actorOf(ctx), keys));
}

/**
 * A request's data loader of rows every caller of the organization reads alike: `batch` gets the
 * organization, not the caller. A change's answer takes these over from the change's own rendering
 * (Loaders.takeOver), so it does not read them again; a batch that depends on the caller must be a
 * `requestLoader`.
 */
export function organizationLoader<K, V>(
  name: string,
  batch: (services: Services, organizationId: string, keys: readonly K[]) => Promise<(V | Error)[]>,
): (ctx: RequestContext) => DataLoader<K, V> {
  return (ctx) => ctx.loaders.ofOrganization<K, V>(name, (keys) => batch(ctx.services, actorOf(ctx).organizationId, keys));
}
