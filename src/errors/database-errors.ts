import { AppError, badRequest, conflict, serviceUnavailable } from "./app-error";

/** Names PostgreSQL constraints in users' words; filled by the modules' constraint messages. */
const constraintMessages = new Map<string, string>();

export function describeConstraint(name: string, message: string): void {
  constraintMessages.set(name, message);
}

const connectionCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004"]);

/** "time_off_requests" → "time off requests": table names are the records' names in plural. */
const recordsOf = (table: string) => table.replace(/_/g, " ");

/** Says which records stand in the way, from PostgreSQL's detail of a foreign-key violation. */
function foreignKeyMessage(detail: string | undefined): string {
  const usedBy = /is still referenced from table "(\w+)"/.exec(detail ?? "")?.[1];
  if (usedBy) return `This record is still used by ${recordsOf(usedBy)}; remove or reassign those first`;
  const missing = /is not present in table "(\w+)"/.exec(detail ?? "")?.[1];
  if (missing) return `This refers to ${recordsOf(missing)} that do not exist`;
  return "This record is referenced by, or refers to, a record that does not exist or is still in use";
}

/**
 * Turns a PostgreSQL error into the client's error where the client can act on it.
 * Returns undefined for an internal error, which is then masked.
 */
export function fromDatabaseError(error: unknown): AppError | undefined {
  const e = error as { code?: string; constraint?: string; message?: string; detail?: string; driverError?: unknown };
  if (e && e.driverError && typeof e.driverError === "object") return fromDatabaseError(e.driverError);
  const code = e?.code;
  if (!code) {
    if (typeof e?.message === "string" && /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect/i.test(e.message)) {
      return serviceUnavailable();
    }
    return undefined;
  }
  const known = e.constraint ? constraintMessages.get(e.constraint) : undefined;
  switch (code) {
    case "23505":
      return conflict(known ?? "A record with the same unique value already exists");
    case "23P01":
      return conflict(known ?? "This overlaps an existing record");
    case "23503":
      return conflict(known ?? foreignKeyMessage(e.detail));
    case "23514":
      return badRequest(known ?? "A value is out of its allowed range");
    case "22P02":
    case "22007":
    case "22008":
    case "22003":
    case "22001":
      return badRequest("A value has the wrong format or is out of range");
    case "40001":
    case "40P01":
      return conflict("The change collided with a concurrent one; retry it");
    case "P0412":
      return new AppError("PRECONDITION_FAILED", "The record has changed since it was read (If-Match names an older version)");
    case "57014":
      return new AppError("STATEMENT_TIMEOUT", "The request took too long and was cancelled");
    default:
      return connectionCodes.has(code) ? serviceUnavailable() : undefined;
  }
}
