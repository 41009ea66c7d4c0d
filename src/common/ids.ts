import { notFound } from "../errors/app-error";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** An id that is not even a UUID names nothing: answer as for an unknown one. */
export function requireUuid(value: string, what: string): string {
  if (!isUuid(value)) throw notFound(what);
  return value.toLowerCase();
}
