import { ERROR_CODES, ErrorCode } from "./error-codes";

/** One field's complaint inside an error body. */
export interface ErrorDetail {
  field: string;
  message: string;
}

/**
 * An error the client caused or may act on. Its code travels in GraphQL's `extensions.code` and
 * its status (the catalog's, `errors/error-codes.ts`) is the REST answer's; everything else is an
 * internal error and is masked.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = "AppError";
    this.status = ERROR_CODES[code].status;
  }

  /** GraphQL executors copy a cause's extensions onto the error they report. */
  get extensions(): { code: string } {
    return { code: this.code };
  }
}

export const badRequest = (message: string, details: ErrorDetail[] = []) => new AppError("BAD_REQUEST", message, details);

export const validationFailed = (message: string, details: ErrorDetail[] = []) => new AppError("VALIDATION_FAILED", message, details);

/** A single-field validation failure, the most common kind. */
export const invalidField = (field: string, message: string) => validationFailed(message, [{ field, message }]);

export const unauthenticated = (message = "A valid bearer token is required: exchange an API key for one (POST /api/auth/token-exchange)") =>
  new AppError("UNAUTHENTICATED", message);

export const forbidden = (message = "Your access role does not allow this action") => new AppError("FORBIDDEN", message);

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);

/**
 * A well-formed id inside a body that names no record of the caller's organization: 404 like an
 * unknown id in the path (another organization's record does not exist for the caller), naming the field.
 */
export const unknownReference = (field: string, message: string) => new AppError("NOT_FOUND", message, [{ field, message }]);

/** A refusal by the record's state: 409 under `CONFLICT` or a code of the catalog that says more. */
export const conflict = (message: string, code: ErrorCode = "CONFLICT") => new AppError(code, message);

export const serviceUnavailable = (message = "The database is unavailable; retry shortly") => new AppError("SERVICE_UNAVAILABLE", message);

/** An If-Match that does not name the record as it is now, in REST and GraphQL alike. */
export const ifMatchFailed = () => new AppError("PRECONDITION_FAILED", "The resource has changed since it was read (If-Match does not match its ETag)");
