import { Client } from "pg";

/** What pg says when a statement is sent on a connection still answering another (an error from pg 9 on). */
export const BUSY_CONNECTION_WARNING = "Calling client.query() when the client is already executing a query";

type QueuedClient = Client & { _queryQueue: unknown[]; pipeline?: boolean };

const sent: string[] = [];

/**
 * Notes every statement this process sends on a busy pg connection, where it was sent from; pg
 * itself warns only once a process, and only where a statement had to wait in its queue.
 */
export function watchBusyConnections(): void {
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function (this: QueuedClient, ...args: unknown[]) {
    if (this._queryQueue.length > 0 && !this.pipeline) sent.push(new Error(BUSY_CONNECTION_WARNING).stack!);
    return query.apply(this, args);
  } as Client["query"];
}

/** Fails when a statement was sent on a busy connection since the last check. */
export function expectNoBusyConnections(): void {
  const found = sent.splice(0);
  if (found.length) throw new Error(`${found.length} statement(s) sent on a pg connection still running another:\n${found[0]}`);
}
