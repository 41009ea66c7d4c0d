/** One field's complaint inside an error body. */
export interface ErrorDetail {
  field: string;
  message: string;
}

/**
 * An error the client caused or may act on. Its code travels in GraphQL's `extensions.code` and
 * becomes the HTTP status in the REST shim; everything else is an internal error and is masked.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = "AppError";
  }

  /** GraphQL executors copy a cause's extensions onto the error they report. */
  get extensions(): { code: string } {
    return { code: this.code };
  }
}

export const badRequest = (message: string, details: ErrorDetail[] = []) =>
  new AppError("BAD_REQUEST", message, 400, details);

export const validationFailed = (message: string, details: ErrorDetail[] = []) =>
  new AppError("VALIDATION_FAILED", message, 400, details);

/** A single-field validation failure, the most common kind. */
export const invalidField = (field: string, message: string) =>
  validationFailed(message, [{ field, message }]);

export const unauthenticated = (message = "A valid bearer token is required: exchange an API key for one (POST /api/auth/token-exchange)") =>
  new AppError("UNAUTHENTICATED", message, 401);

export const forbidden = (message = "Your access role does not allow this action") =>
  new AppError("FORBIDDEN", message, 403);

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`, 404);

/**
 * A well-formed id inside a body that names no record of the caller's organization: 404 like an
 * unknown id in the path (another organization's record does not exist for the caller), naming the field.
 */
export const unknownReference = (field: string, message: string) => new AppError("NOT_FOUND", message, 404, [{ field, message }]);

export const conflict = (message: string, code = "CONFLICT") => new AppError(code, message, 409);

export const serviceUnavailable = (message = "The database is unavailable; retry shortly") =>
  new AppError("SERVICE_UNAVAILABLE", message, 503);

/** An If-Match that does not name the record as it is now, in REST and GraphQL alike. */
export const ifMatchFailed = () =>
  new AppError("PRECONDITION_FAILED", "The resource has changed since it was read (If-Match does not match its ETag)", 412);
