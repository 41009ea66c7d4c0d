import { getNullableType, GraphQLInputType, GraphQLScalarType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType } from "graphql";
import { refusesNull } from "../common/validation";
import { ErrorDetail } from "../errors/app-error";

/** What each scalar must be, said as a REST client would: never GraphQL's `Float cannot represent …`. */
const SCALARS: Record<string, { ok: (value: unknown) => boolean; says: string }> = {
  String: { ok: (v) => typeof v === "string", says: "must be a string" },
  ID: { ok: (v) => typeof v === "string", says: "must be a string (an id)" },
  Int: { ok: (v) => Number.isInteger(v) && Math.abs(v as number) <= 2 ** 31 - 1, says: "must be a whole number" },
  Float: { ok: (v) => typeof v === "number" && Number.isFinite(v), says: "must be a number" },
  Boolean: { ok: (v) => typeof v === "boolean", says: "must be true or false" },
  DateTimeISO: { ok: (v) => typeof v === "string", says: "must be a date and time (ISO 8601)" },
  JSONObject: { ok: (v) => typeof v === "object" && v !== null && !Array.isArray(v), says: "must be an object" },
};

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const kept = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = kept;
    }
  }
  return row[b.length];
}

/** The field meant by a misspelt one: same letters in another case, else the nearest within a third of its length. */
function meant(name: string, fields: string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameLetters = fields.find((f) => f.toLowerCase() === lower);
  if (sameLetters) return sameLetters;
  // A name far longer than any field's is no misspelling of one (and comparing it would cost its length times theirs).
  if (name.length > 2 * Math.max(0, ...fields.map((f) => f.length)) + 3) return undefined;
  const scored = fields.map((f) => ({ f, d: distance(lower, f.toLowerCase()) })).sort((a, b) => a.d - b.d);
  return scored[0] && scored[0].d <= Math.max(1, Math.floor(name.length / 3)) ? scored[0].f : undefined;
}

function scalarProblem(type: GraphQLScalarType, value: unknown): string | undefined {
  const known = SCALARS[type.name];
  if (known) {
    if (!known.ok(value)) return known.says;
  }
  try {
    type.parseValue(value);
    return undefined;
  } catch {
    return known?.says ?? `is not a valid ${type.name}`;
  }
}

/**
 * Checks a JSON body against the GraphQL input type it fills, naming every field as the body
 * names it ("timezone is required", "hourlyWage must be a number", "breaks[0].typeId …"), so that
 * the operation then runs only on values GraphQL accepts as they are.
 */
export function checkBody(type: GraphQLInputType, value: unknown, path = ""): ErrorDetail[] {
  const field = path || "body";
  if (value === null || value === undefined) {
    return isNonNullType(type) ? [{ field, message: `${field} ${value === null ? "must not be null" : "is required"}` }] : [];
  }
  const inner = getNullableType(type) as GraphQLInputType;
  const problem = (says: string): ErrorDetail[] => [{ field, message: `${field} ${says}` }];
  if (isListType(inner)) {
    if (!Array.isArray(value)) return problem("must be an array");
    return value.flatMap((item, i) => checkBody(inner.ofType, item, `${path}[${i}]`));
  }
  if (isEnumType(inner)) {
    const names = inner.getValues().map((v) => v.name);
    return typeof value === "string" && names.includes(value) ? [] : problem(`must be one of ${names.join(", ")}`);
  }
  if (isInputObjectType(inner)) {
    if (typeof value !== "object" || Array.isArray(value))
      return path ? problem("must be an object") : [{ field, message: "The request body must be a JSON object" }];
    const fields = inner.getFields();
    const names = Object.keys(fields);
    const prefix = path ? `${path}.` : "";
    const details: ErrorDetail[] = [];
    for (const key of Object.keys(value)) {
      if (fields[key]) continue;
      const suggestion = meant(key, names);
      details.push({
        field: `${prefix}${key}`,
        message: `${prefix}${key} is not a field of this ${path ? "object" : "body"}${suggestion ? `; did you mean ${prefix}${suggestion}?` : ""}`,
      });
    }
    for (const f of Object.values(fields)) {
      const given = (value as Record<string, unknown>)[f.name];
      if (given === undefined && f.defaultValue !== undefined) continue;
      if (given === null && refusesNull(inner, f.name)) {
        details.push({ field: `${prefix}${f.name}`, message: `${prefix}${f.name} must not be null: leave it out to keep its value` });
        continue;
      }
      details.push(...checkBody(f.type, given, `${prefix}${f.name}`));
    }
    return details;
  }
  if (isScalarType(inner)) {
    const says = scalarProblem(inner, value);
    return says ? problem(says) : [];
  }
  return [];
}
