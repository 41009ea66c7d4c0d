import { GraphQLScalarType } from "graphql";
import { GraphQLDateTimeISO } from "graphql-scalars";
import { utcTimeAt } from "../common/local-time";

/**
 * The schema's `DateTimeISO`, as graphql-scalars defines it, but writing a Date through the cached
 * UTC formatting of local times: `Date#toISOString` formats through printf, and a list of shifts
 * writes two timestamps a row. Same text, same parsing.
 */
const base = GraphQLDateTimeISO.toConfig();

export const DateTimeISO = new GraphQLScalarType({
  ...base,
  serialize(value: unknown): string {
    if (value instanceof Date && !Number.isNaN(value.getTime())) return utcTimeAt(value.getTime());
    return base.serialize!(value) as string;
  },
});
