import { EventEmitter } from "node:events";
import type { Logger } from "pino";
import { Client } from "pg";
import { CountingClient } from "../../database/statement-count";
import { DataSource } from "typeorm";
import type { PGliteDatabase } from "../../database/pglite-pool";
import { outsideTheRequest } from "../../database/request-actor";

/** An event committed by any process: its organization and id, and how many webhook deliveries it made (the `events` notification's payload). */
export interface CommittedEvent {
  organizationId: string;
  eventId: string;
  /** Unknown (null) in a payload written before the count was. */
  deliveries: number | null;
}

const CHANNEL = "events";
const RECONNECT_MS = 1000;

/**
 * Tells this process about every event committed by any process, through PostgreSQL's
 * LISTEN/NOTIFY: on a server, on a connection of its own outside the pool (LISTEN belongs to a
 * session, which a pooled connection is not); on the embedded database, which only this process
 * uses, on its one session. Emits `event` (a CommittedEvent) and `gap` after a lost connection,
 * when listeners should read what they may have missed.
 */
export class EventFeed extends EventEmitter {
  private client: Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: DataSource,
    private readonly databaseUrl: string | undefined,
    private readonly logger: Logger,
  ) {
    super();
    this.setMaxListeners(0);
  }

  async start(): Promise<void> {
    if (this.databaseUrl) return this.connect();
    const database = (this.db.options as { driver?: { database?: PGliteDatabase } }).driver?.database;
    if (!database) return;
    const release = await database.lease();
    try {
      await database.listen(CHANNEL, (payload) => this.received(payload));
    } finally {
      release();
    }
  }

  private received(payload: string): void {
    const [organizationId, eventId, deliveries] = payload.split(" ");
    // On PGlite the notice arrives inside the committing request's context: what it wakes is not
    // that request's work, and must neither be recorded under its actor nor hand its readings to it.
    const event = { organizationId, eventId, deliveries: deliveries === undefined ? null : Number(deliveries) } satisfies CommittedEvent;
    outsideTheRequest(() => this.emit("event", event));
  }

  private async connect(): Promise<void> {
    const client: Client = new CountingClient({ connectionString: this.databaseUrl });
    client.on("notification", (n) => n.channel === CHANNEL && n.payload && this.received(n.payload));
    client.on("error", (err) => {
      this.logger.warn({ err }, "event feed: connection lost");
      this.reconnect(client);
    });
    client.on("end", () => this.reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.client = client;
      this.emit("gap");
    } catch (err) {
      this.logger.warn({ err }, "event feed: cannot listen");
      this.reconnect(client);
    }
  }

  private reconnect(client: Client): void {
    if (this.closed || this.retry || (this.client && this.client !== client)) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, RECONNECT_MS).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }
}
