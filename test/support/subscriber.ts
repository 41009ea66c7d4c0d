import { Client, createClient } from "graphql-ws";
import WebSocket from "ws";

export interface Received {
  type: string;
  data: { object: Record<string, any>; previousAttributes?: Record<string, unknown> | null };
}

/**
 * A graphql-ws client of the service's /graphql WebSocket, subscribed to one document: what it
 * receives is kept in order; `until` waits for a condition, never for a time.
 */
export class Subscriber {
  readonly received: Received[] = [];
  readonly errors: unknown[] = [];
  private waiters: (() => void)[] = [];
  private constructor(
    private readonly client: Client,
    private readonly unsubscribe: () => void,
  ) {}

  /** Connects to `httpUrl` (http://host:port) with `token`, subscribes, and resolves once the server has taken the subscription. */
  static async start(httpUrl: string, token: string | null, query: string, variables: Record<string, unknown> = {}): Promise<Subscriber> {
    let acknowledged!: () => void;
    let refused!: (reason: Error) => void;
    const connected = new Promise<void>((resolve, reject) => {
      acknowledged = resolve;
      refused = reject;
    });
    const client = createClient({
      url: `${httpUrl.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: token ? { authorization: `Bearer ${token}` } : {},
      lazy: false,
      retryAttempts: 0,
      on: {
        connected: () => acknowledged(),
        closed: (event) => refused(new Error(`connection closed: ${(event as { code: number }).code}`)),
      },
      onNonLazyError: () => undefined,
    });
    let subscriber!: Subscriber;
    const unsubscribe = client.subscribe<{ [field: string]: Received }>(
      { query, variables },
      {
        next: (value) => {
          if (value.errors) subscriber.errors.push(...value.errors);
          const field = value.data && Object.values(value.data)[0];
          if (field) subscriber.received.push(field);
          subscriber.notify();
        },
        error: (error) => {
          subscriber.errors.push(error);
          subscriber.notify();
        },
        complete: () => subscriber.notify(),
      },
    );
    subscriber = new Subscriber(client, unsubscribe);
    await connected;
    return subscriber;
  }

  private notify(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves once `condition` holds of what was received. */
  async until(condition: (s: Subscriber) => boolean): Promise<void> {
    while (!condition(this)) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  async close(): Promise<void> {
    this.unsubscribe();
    await this.client.dispose();
  }
}

/** What the server answers a connection: resolves with the close code when it closes it, or "acknowledged" when it accepts it. */
export function connectionOutcome(httpUrl: string, connectionParams: Record<string, unknown>): Promise<number | "acknowledged"> {
  return new Promise((resolve) => {
    const client = createClient({
      url: `${httpUrl.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams,
      lazy: false,
      retryAttempts: 0,
      on: {
        connected: () => {
          resolve("acknowledged");
          void client.dispose();
        },
        closed: (event) => resolve((event as { code: number }).code),
      },
      onNonLazyError: () => undefined,
    });
  });
}
