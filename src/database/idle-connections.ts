/**
 * How long a pooled connection to PostgreSQL may sit idle before its pool closes it. With pg's
 * default (10 s) the pools closed connections between the bursts of a steady load and opened new
 * ones at the next: each a new server process that reads the catalog and prepares every statement
 * afresh. A pool still never holds more than its size.
 */
export const IDLE_CONNECTION_MS = 300_000;
