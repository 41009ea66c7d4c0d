import { AsyncLocalStorage } from "node:async_hooks";
import { requestLoaders } from "../loaders/loaders";

/** Who a request acts for, as the audit trail records it. */
export interface RequestActor {
  staffId: string | null;
  apiKeyId: string | null;
  requestId: string;
  /** The version of a record the caller read (If-Match `"<id>@<updatedAt>"`); the database refuses to change it from another. */
  ifMatch?: { id: string; version: string };
}

const RECORD_VERSION = /^"?([0-9a-f-]{36})@([0-9T:.Z-]{20,30})"?$/i;

/**
 * The record version an If-Match header names: undefined without a condition (no header, or "*");
 * null when the header names no record version ("x@y", a hash), which no record can match.
 */
export function recordVersionOf(ifMatch: string | undefined): RequestActor["ifMatch"] | null {
  const given = ifMatch?.trim().replace(/^W\//, "");
  if (given === undefined || given === "*") return undefined;
  const m = RECORD_VERSION.exec(given);
  return m ? { id: m[1].toLowerCase(), version: m[2] } : null;
}

/** Carries the request's actor through every await of the request, down to its units of work (unit-of-work.ts). */
export const requestActor = new AsyncLocalStorage<RequestActor>();

/**
 * Runs `work` as no request's: what a request only sets off (a notice's listeners, a queued
 * generation, which may well be another caller's) must neither be recorded under that request's
 * actor nor hand its readings to that request's loaders.
 */
export function outsideTheRequest<T>(work: () => T): T {
  return requestActor.exit(() => requestLoaders.exit(work));
}
