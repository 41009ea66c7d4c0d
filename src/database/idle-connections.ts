/**
 * How long a pooled connection to PostgreSQL may sit idle before its pool closes it. pg's default
 * (10 s) closed connections between the bursts of a steady load, and each new one slowed the
 * requests that opened it: the server starts a process, which reads the catalog and plans every
 * prepared statement afresh. A pool still never holds more than its size.
 */
export const IDLE_CONNECTION_MS = 300_000;
