import { GraphQLError } from "graphql";
import { ArgumentValidationError } from "type-graphql";
import type { ValidationError } from "class-validator";
import { AppError, ErrorDetail, validationFailed, badRequest } from "./app-error";
import { fromDatabaseError } from "./database-errors";

/** What a client is told about an error, in both interfaces. */
export interface ClientError {
  code: string;
  message: string;
  status: number;
  details: ErrorDetail[];
  /** True when the error is ours, not the client's: log it whole. */
  internal: boolean;
}

function flattenValidation(errors: ValidationError[], prefix = ""): ErrorDetail[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flattenValidation(e.children ?? [], field)];
  });
}

/** `Variable "$input" got invalid value 5 at "input.name"; String cannot represent…` → `name`. */
function coercionDetail(message: string): ErrorDetail {
  const at = /at "([^"]+)"/.exec(message)?.[1];
  const notDefined = /Field "([^"]+)" is not defined by type/.exec(message)?.[1];
  const notProvided = /Field "([^"]+)" of required type "[^"]+" was not provided/.exec(message)?.[1];
  const variable = /Variable "\$([^"]+)"/.exec(message)?.[1];
  const path = at ? at.split(".").slice(1) : [];
  const leaf = notDefined ?? notProvided;
  const field = [...path, ...(leaf ? [leaf] : [])].join(".") || variable || "body";
  const reason = message.includes("; ") ? message.slice(message.indexOf("; ") + 2) : message;
  return { field, message: notDefined ? `Unknown field "${notDefined}"` : reason };
}

/** Apollo's codes for a request that is not a valid GraphQL operation. */
const QUERY_CODES = new Set([
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "OPERATION_RESOLUTION_FAILURE",
  "PERSISTED_QUERY_NOT_SUPPORTED",
  "PERSISTED_QUERY_NOT_FOUND",
  "BAD_REQUEST",
]);

/** The longest text an error body carries in a message or detail: what quotes the input (a value, a name) quotes at most this much. */
export const MAX_ERROR_TEXT = 500;

export function capErrorText(text: string): string {
  return text.length <= MAX_ERROR_TEXT ? text : `${text.slice(0, MAX_ERROR_TEXT)}… (${text.length - MAX_ERROR_TEXT} more characters)`;
}

/** An error as it may be sent: its message and details no longer than MAX_ERROR_TEXT each. */
export function capErrorBody<E extends Pick<ClientError, "message" | "details">>(error: E): E {
  return { ...error, message: capErrorText(error.message), details: error.details.map((d) => ({ ...d, field: capErrorText(d.field), message: capErrorText(d.message) })) };
}

export function toClientError(error: GraphQLError | Error): ClientError {
  return capErrorBody(classify(error));
}

function classify(error: GraphQLError | Error): ClientError {
  const original = error instanceof GraphQLError ? error.originalError ?? undefined : error;
  const fromApp = (e: AppError): ClientError => ({ code: e.code, message: e.message, status: e.status, details: e.details, internal: false });

  if (original instanceof AppError) return fromApp(original);
  if (original instanceof ArgumentValidationError) {
    const details = flattenValidation(original.extensions.validationErrors as unknown as ValidationError[]);
    return fromApp(validationFailed(details[0] ? `${details[0].field}: ${details[0].message}` : "Invalid input", details));
  }
  if (original) {
    const known = fromDatabaseError(original);
    if (known) return { ...fromApp(known), internal: known.status >= 500 };
  }
  // An execution error (it has a path) without a cause is a bug of ours, such as a null where the
  // schema promised a value; one without a path is about the query document or its variables.
  if (error instanceof GraphQLError && !error.path && (!original || original instanceof GraphQLError)) {
    // Apollo re-labels validation errors; the code of our own validation rules is on the original.
    const ownCode = original instanceof GraphQLError ? original.extensions?.code : undefined;
    const code = String(ownCode ?? error.extensions?.code ?? "");
    if (code === "BAD_USER_INPUT" || /^Variable "\$/.test(error.message)) {
      const detail = coercionDetail(error.message);
      return fromApp(validationFailed(`${detail.field}: ${detail.message}`, [detail]));
    }
    if (code.startsWith("QUERY_TOO_")) return fromApp(new AppError(code, error.message, 400));
    if (QUERY_CODES.has(code) || !code) return fromApp(badRequest(error.message));
    if (code === "UNAUTHENTICATED" || code === "FORBIDDEN") {
      return { code, message: error.message, status: code === "FORBIDDEN" ? 403 : 401, details: [], internal: false };
    }
  }
  return { code: "INTERNAL_SERVER_ERROR", message: "An internal error occurred", status: 500, details: [], internal: true };
}
