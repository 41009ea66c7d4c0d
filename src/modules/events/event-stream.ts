import type { Logger } from "pino";
import type { CommittedEvent, EventFeed } from "./event-feed";
import type { EventService } from "./event.service";
import { Event } from "./event.types";

/** Whether a subscriber gets an event (its permission and its filters). */
export type EventFilter = (event: Event) => boolean | Promise<boolean>;

/** Events a subscriber has not yet taken; past this a slow subscriber is closed rather than buffered without end. */
const MAX_QUEUED = 1000;

interface Subscriber {
  accept: EventFilter;
  push(event: Event): void;
  end(): void;
}

/**
 * Hands every committed event of an organization to this process's live subscribers (GraphQL
 * subscriptions). The EventFeed says which events were committed, by any process; each is read
 * once here, only when its organization has a subscriber, and offered to each of them in
 * sequence order of arrival.
 */
export class EventStream {
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  /** Reads in arrival order, so every subscriber gets an organization's events as they were committed. */
  private reading: Promise<void> = Promise.resolve();

  constructor(
    feed: EventFeed,
    private readonly events: EventService,
    private readonly logger: Logger,
  ) {
    feed.on("event", (e: CommittedEvent) => this.committed(e));
  }

  private committed({ organizationId, eventId }: CommittedEvent): void {
    const subscribers = this.subscribers.get(organizationId);
    if (!subscribers?.size) return;
    const read = this.events.byIds(organizationId, [eventId]);
    this.reading = this.reading
      .then(async () => {
        const [event] = await read;
        if (!event) return;
        for (const subscriber of this.subscribers.get(organizationId) ?? []) {
          if (await subscriber.accept(event)) subscriber.push(event);
        }
      })
      .catch((err) => this.logger.error({ err }, "event stream: reading a committed event failed"));
  }

  /** The organization's events from now on that `accept` lets through, until the iterator is returned. */
  subscribe(organizationId: string, accept: EventFilter): AsyncIterableIterator<Event> {
    const queue: Event[] = [];
    let waiting: ((result: IteratorResult<Event>) => void) | undefined;
    let done = false;
    const subscribers = this.subscribers.get(organizationId) ?? new Set<Subscriber>();
    this.subscribers.set(organizationId, subscribers);
    const finish = (): IteratorResult<Event> => {
      done = true;
      subscribers.delete(subscriber);
      if (!subscribers.size) this.subscribers.delete(organizationId);
      queue.length = 0;
      waiting?.({ value: undefined, done: true });
      waiting = undefined;
      return { value: undefined, done: true };
    };
    const subscriber: Subscriber = {
      accept,
      end: finish,
      push(event) {
        if (done) return;
        if (waiting) {
          const resolve = waiting;
          waiting = undefined;
          resolve({ value: event, done: false });
        } else if (queue.length >= MAX_QUEUED) {
          finish();
        } else {
          queue.push(event);
        }
      },
    };
    subscribers.add(subscriber);
    return {
      next: () => {
        if (queue.length) return Promise.resolve({ value: queue.shift()!, done: false });
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (waiting = resolve));
      },
      return: () => Promise.resolve(finish()),
      throw: (error) => {
        finish();
        return Promise.reject(error);
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /** Ends every subscription (at shutdown). */
  close(): void {
    for (const subscribers of [...this.subscribers.values()]) {
      for (const s of [...subscribers]) s.end();
    }
  }
}
