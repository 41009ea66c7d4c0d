import type { Logger } from "pino";
import { Actor } from "../auth/actor";
import type { Services } from "../common/services";
import { Loaders } from "../loaders/loaders";
import type { EventStream } from "../modules/events/event-stream";

/** What every resolver gets: who calls, the services, and this request's loaders. */
export interface RequestContext {
  requestId: string;
  actor: Actor | null;
  /** A bearer credential that is not a token (the platform key, when creating organizations). */
  presentedKey: string | null;
  services: Services;
  loaders: Loaders;
  logger: Logger;
  /** Set by the REST shim: the root field whose permissions it has already checked for this call. */
  checkedRootField?: string;
  /** The caller's network address as Express computes it (`req.ip`, which honours `trust proxy`). */
  clientAddress?: string;
  /** A registered time-clock device's token, from the `X-Clock-Device` header (never logged). */
  clockDeviceToken?: string;
  /** Spends more of the caller's rate limit than the call's own cost, for work only the call can count (set when rate limits are on). */
  spendPoints?(points: number): Promise<void>;
  /** Committed events for live subscriptions (set on WebSocket connections only). */
  eventStream?: EventStream;
}
