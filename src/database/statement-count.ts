import { Client } from "pg";

let sent = 0;

/**
 * SQL statements this process has sent to its databases since it started, for /healthz: the work
 * a call asks of the database, as a count that a busy machine does not blur as it does times.
 */
export function statementsSent(): number {
  return sent;
}

/** Counts one statement sent (the embedded database's, which sends no `pg` client's). */
export function countStatement(): void {
  sent++;
}

/** A `pg` client (a pool's `Client` option) that counts the statements it sends. */
export class CountingClient extends Client {
  // pg's own overloads pass through as they came.
  override query(...args: unknown[]): never {
    countStatement();
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}
