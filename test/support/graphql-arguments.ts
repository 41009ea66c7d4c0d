import {
  getNamedType,
  GraphQLField,
  GraphQLInputType,
  GraphQLOutputType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from "graphql";
import { graphqlSchema } from "../../src/app/modules";

export type OperationKind = "query" | "mutation";

/** Every query and mutation of the service's schema, with its kind. */
export function rootFields(): [OperationKind, GraphQLField<unknown, unknown>][] {
  const schema = graphqlSchema();
  return [
    ...Object.values(schema.getQueryType()!.getFields()).map((f) => ["query", f] as [OperationKind, GraphQLField<unknown, unknown>]),
    ...Object.values(schema.getMutationType()!.getFields()).map((f) => ["mutation", f] as [OperationKind, GraphQLField<unknown, unknown>]),
  ];
}

/** Whether a value of this type is a record id. */
function isId(type: GraphQLInputType): boolean {
  return getNamedType(type).name === "ID";
}

/** Whether an argument or input field of this type carries an id anywhere, nested inputs included. */
export function carriesId(type: GraphQLInputType, seen = new Set<string>()): boolean {
  if (isId(type)) return true;
  const named = getNamedType(type);
  if (!isInputObjectType(named) || seen.has(named.name)) return false;
  seen.add(named.name);
  return Object.values(named.getFields()).some((f) => carriesId(f.type, seen));
}

/**
 * A valid-looking string for a field, chosen by its name and description: a range's end after its
 * start (a timestamp's a few hours later, a day's the day after), a copy's target after its source,
 * a timestamp where the schema says so (an open shift's `startDate`), zones that exist. Never the
 * word the isolation matrix looks for in answers.
 */
export function stringFor(name: string, description: string): string {
  if (/zone$/i.test(name)) return "UTC";
  const end = /end/i.test(name);
  if (/time$/i.test(name) || /timestamp/i.test(description)) return end ? "2026-03-02T17:00:00Z" : "2026-03-02T09:00:00Z";
  if (/date$/i.test(name)) return /^target/.test(name) ? "2026-03-09" : end ? "2026-03-03" : "2026-03-02";
  return "Filled in";
}

/** Literals of the other scalars the schema's inputs may use; a new one fails loudly until added. */
export const SCALAR_LITERALS: Record<string, string> = {
  Int: "10",
  Float: "1.5",
  Boolean: "true",
  DateTimeISO: JSON.stringify("2026-03-02T09:00:00.000Z"),
  JSONObject: "{}",
};

/**
 * A GraphQL literal for a value of `type` named `name` (and so described): ids from `idFor` (given
 * the field's name), an enum's first value, input objects with every required field and every field
 * that carries an id (so that a nested foreign id is used too), lists of one element.
 */
export function literalFor(type: GraphQLInputType, name: string, idFor: (name: string) => string, description = ""): string {
  if (isNonNullType(type)) return literalFor(type.ofType, name, idFor, description);
  if (isListType(type)) return `[${literalFor(type.ofType, name, idFor, description)}]`;
  if (isId(type)) return JSON.stringify(idFor(name));
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) || carriesId(f.type));
    return `{${fields.map((f) => ` ${f.name}: ${literalFor(f.type, f.name, idFor, f.description ?? "")}`).join(",")} }`;
  }
  if (isScalarType(type) && type.name === "String") return JSON.stringify(stringFor(name, description));
  const literal = SCALAR_LITERALS[type.name];
  if (literal === undefined) throw new Error(`No literal for the scalar ${type.name} (${name}): add one to SCALAR_LITERALS`);
  return literal;
}

/**
 * The selection of an answer of `type`: its scalar fields and, `depth` levels down, those of the
 * objects it holds; enough for a leaked record to show its id, organization and name.
 */
export function selectionOf(type: GraphQLOutputType, depth = 2): string {
  const named = getNamedType(type);
  if (!isObjectType(named)) return isCompositeType(named) ? "{ __typename }" : "";
  const fields = Object.values(named.getFields())
    .filter((f) => f.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined))
    .flatMap((f) => {
      const inner = getNamedType(f.type);
      if (isLeafType(inner)) return [f.name];
      return depth > 0 && isObjectType(inner) ? [`${f.name} ${selectionOf(f.type, depth - 1)}`] : [];
    });
  return `{ __typename ${fields.join(" ")} }`;
}

/** The whole operation calling `field` with its required arguments and every argument that carries an id. */
export function operationCalling(kind: OperationKind, field: GraphQLField<unknown, unknown>, idFor: (name: string) => string): string {
  const args = field.args
    .filter((a) => (isNonNullType(a.type) && a.defaultValue === undefined) || carriesId(a.type))
    .map((a) => `${a.name}: ${literalFor(a.type, a.name, idFor, a.description ?? "")}`)
    .join(", ");
  return `${kind} { ${field.name}${args ? `(${args})` : ""} ${selectionOf(field.type)} }`;
}

/** How many ids `operationCalling` puts into a call of `field`: each a place a foreign id may hide. */
export function idsTakenBy(kind: OperationKind, field: GraphQLField<unknown, unknown>): number {
  let count = 0;
  operationCalling(kind, field, () => String(count++));
  return count;
}
