import { invalidField } from "../errors/app-error";

/**
 * In a partial update, an absent field is left alone but an explicit null on a field that cannot
 * be empty is a mistake worth a 400, not a silent no-op.
 */
export function rejectNulls<T extends object>(input: T, fields: (keyof T & string)[]): void {
  for (const field of fields) {
    if ((input as Record<string, unknown>)[field] === null) throw invalidField(field, `${field} cannot be null`);
  }
}

/** Only the fields the client sent, for a partial update. */
export function definedFields<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}
