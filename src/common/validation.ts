import { CheckedBy, CheckOptions } from "./input-checks";
import { Extensions, getMetadataStorage } from "type-graphql";
import { invalidField } from "../errors/app-error";

const NULL_REFUSED = "nullRefused:";

/**
 * Names the optional fields of an input type that always hold a value (a name, a time zone, a
 * flag): left out they keep their value, sent as null they are refused. The OpenAPI document
 * declares them not nullable and the REST body check refuses their null naming the field; the
 * service refuses it as well (`rejectNulls`), for every other caller. One extension per field, so
 * that a subclass adds to the fields its base class names.
 */
export function NullRefused<T>(...fields: (keyof T & string)[]): ClassDecorator {
  return Extensions(Object.fromEntries(fields.map((field) => [`${NULL_REFUSED}${field}`, true])));
}

/** Whether an input type refuses an explicit null for `field` (see NullRefused). */
export function refusesNull(type: { extensions: Readonly<Record<string, unknown>> }, field: string): boolean {
  return type.extensions[`${NULL_REFUSED}${field}`] === true;
}

/** An input class, abstract bases included. */
type InputClass = abstract new (...args: never[]) => object;

/** The fields input class `type` refuses null for, those its base classes name included (see NullRefused). */
function nullRefusedFields(type: InputClass): string[] {
  return getMetadataStorage()
    .classExtensions.filter((entry) => entry.target === type || Object.prototype.isPrototypeOf.call(entry.target, type))
    .flatMap((entry) => Object.keys(entry.extensions).filter((key) => key.startsWith(NULL_REFUSED)))
    .map((key) => key.slice(NULL_REFUSED.length));
}

/**
 * In a partial update, an absent field is left alone but an explicit null on a field that cannot
 * be empty is a mistake worth a 400, not a silent no-op. The fields are those `@NullRefused` names
 * on the input's class: GraphQL arguments, and so REST bodies, reach services as instances of it;
 * a caller holding a plain object passes the class.
 */
export function rejectNulls<T extends object>(input: T, refused: InputClass = input.constructor as InputClass): void {
  const fields = nullRefusedFields(refused);
  // A plain object (or a class without the decorator) would otherwise let every null through unnoticed.
  if (!fields.length) throw new Error(`${refused.name} names no field that refuses null`);
  for (const field of fields) {
    if ((input as Record<string, unknown>)[field] === null) throw invalidField(field, `${field} cannot be null`);
  }
}

/** Only the fields the client sent, for a partial update. */
export function definedFields<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** C0 and C1 control characters (line breaks and tabs among them) and the Unicode line and paragraph separators. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Refuses control characters in a name or identifier: they land in CSV rows that payroll
 * importers read line by line, and in labels that a line break would split.
 */
export function NoControlCharacters(options?: CheckOptions): PropertyDecorator {
  return CheckedBy(
    {
      name: "noControlCharacters",
      validator: {
        validate: (value: unknown) => typeof value !== "string" || !CONTROL_CHARACTER.test(value),
        defaultMessage: (args) => `${args?.property} must not contain control characters such as line breaks or tabs`,
      },
    },
    options,
  );
}

/** NUL, which PostgreSQL cannot hold in text, and UTF-16 halves without their pair, which UTF-8 cannot encode. */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** Text from outside (a receiver's answer, an error of its connection) made storable: what PostgreSQL refuses becomes U+FFFD. */
export function storableText(text: string): string {
  return isStorableText(text) ? text : text.replace(new RegExp(UNSTORABLE.source, "g"), "\ufffd");
}

/**
 * The path (`input.name`, `tags.2`) of the first text in `value`, key or string, that the database
 * could not store as sent; undefined when there is none.
 */
export function unstorableTextIn(value: unknown, path = ""): string | undefined {
  // A stack rather than recursion: a body may nest as deep as its size allows.
  const pending: [unknown, string][] = [[value, path]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [inner, at] = next;
    if (typeof inner === "string") {
      if (!isStorableText(inner)) return at;
    } else if (typeof inner === "object" && inner !== null) {
      for (const [key, item] of Object.entries(inner)) {
        const itemAt = at ? `${at}.${key}` : key;
        if (!isStorableText(key)) return itemAt;
        pending.push([item, itemAt]);
      }
    }
  }
  return undefined;
}

/** The refusal of text the database could not store. */
export const unstorableText = (field: string) => invalidField(field, `${field} holds a character that cannot be stored (U+0000 or a lone UTF-16 surrogate)`);

/**
 * A number with at most `places` decimals: the double nearest to its text with that many. The
 * text a client sent may hide more in an exponent (`-8e-323`), which a count of digits after a
 * point misses and the database would round away or refuse.
 */
export function AtMostDecimals(places: number, options?: CheckOptions): PropertyDecorator {
  return CheckedBy(
    {
      name: "atMostDecimals",
      constraints: [places],
      validator: {
        validate: (value: unknown) => typeof value !== "number" || Number(value.toFixed(places)) === value,
        defaultMessage: (args) => `${args?.property ?? "value"} must have at most ${places} decimals`,
      },
    },
    options,
  );
}
