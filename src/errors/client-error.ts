import type { Request, Response } from "express";
import { GraphQLError } from "graphql";
import { ArgumentValidationError } from "type-graphql";
import { AppError, ErrorDetail, validationFailed, badRequest } from "./app-error";
import { fromDatabaseError } from "./database-errors";
import { ERROR_CODES, ErrorCode, isErrorCode } from "./error-codes";

/** What a client is told about an error, in both interfaces. */
export interface ClientError {
  code: ErrorCode;
  message: string;
  status: number;
  details: ErrorDetail[];
  /** True when the error is ours, not the client's: log it whole. */
  internal: boolean;
}

/** How the layers below the HTTP app answer a refusal in REST's error body (`sendError` of http/app.ts). */
export type SendError = (res: Response, req: Request, error: Pick<ClientError, "code" | "message" | "status" | "details">) => void;

/** A refusal outside any resolver (routing, body parsing, rate limits), with the catalog's status. */
export function refusal(code: ErrorCode, message: string, details: ErrorDetail[] = []): ClientError {
  return { code, message, status: ERROR_CODES[code].status, details, internal: false };
}

/** What was wrong with one field of an input (or item of a list): its failed checks by name, and what was wrong inside it. */
export interface FieldViolation {
  property: string;
  value: unknown;
  constraints?: Record<string, string>;
  children?: FieldViolation[];
}

function flattenValidation(errors: FieldViolation[], prefix = ""): ErrorDetail[] {
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

/**
 * A missing or unknown field of an input object written in the document itself
 * (`Field "CreateRoleInput.name" of required type "String!" was not provided.`), named as the same
 * mistake in variables is.
 */
function literalFieldDetail(message: string): ErrorDetail | undefined {
  const missing = /^Field "\w+\.(\w+)" of required type "[^"]+" was not provided/.exec(message)?.[1];
  if (missing) return { field: missing, message: message.replace(/^Field "\w+\./, 'Field "') };
  const unknown = /^Field "(\w+)" is not defined by type "\w+"/.exec(message)?.[1];
  return unknown ? { field: unknown, message: `Unknown field "${unknown}"` } : undefined;
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
  return {
    ...error,
    message: capErrorText(error.message),
    details: error.details.map((d) => ({ ...d, field: capErrorText(d.field), message: capErrorText(d.message) })),
  };
}

export function toClientError(error: GraphQLError | Error): ClientError {
  return capErrorBody(classify(error));
}

function classify(error: GraphQLError | Error): ClientError {
  const original = error instanceof GraphQLError ? (error.originalError ?? undefined) : error;
  const fromApp = (e: AppError): ClientError => ({ code: e.code, message: e.message, status: e.status, details: e.details, internal: false });

  if (original instanceof AppError) return fromApp(original);
  if (original instanceof ArgumentValidationError) {
    const details = flattenValidation(original.extensions.validationErrors as unknown as FieldViolation[]);
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
    const literal = code === "GRAPHQL_VALIDATION_FAILED" ? literalFieldDetail(error.message) : undefined;
    if (literal) return fromApp(validationFailed(`${literal.field}: ${literal.message}`, [literal]));
    if (QUERY_CODES.has(code) || !code) return fromApp(badRequest(error.message));
    // Our own guards' codes (QUERY_TOO_*, UNAUTHENTICATED, FORBIDDEN) keep their catalog status.
    if (isErrorCode(code)) return refusal(code, error.message);
  }
  return { ...refusal("INTERNAL_SERVER_ERROR", "An internal error occurred"), internal: true };
}
