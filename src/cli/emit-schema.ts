import "reflect-metadata";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { lexicographicSortSchema, printSchema } from "graphql";
import { graphqlSchema } from "../app/modules";

/** Writes schema.graphql at the repository's top level. */
export const SCHEMA_FILE = path.join(__dirname, "../../../schema.graphql");

/** The schema as printed into schema.graphql: sorted, so the file changes only when the schema does. */
export function printedSchema(): string {
  return printSchema(lexicographicSortSchema(graphqlSchema())) + "\n";
}

if (require.main === module) {
  writeFileSync(SCHEMA_FILE, printedSchema());
  console.log(`Wrote ${SCHEMA_FILE}`);
}
