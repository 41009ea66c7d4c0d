import "reflect-metadata";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { printSchema } from "graphql";
import { sortedSchema } from "../graphql/schema";

/** Writes schema.graphql at the repository's top level. */
export const SCHEMA_FILE = path.join(__dirname, "../../../schema.graphql");

export function printedSchema(): string {
  return printSchema(sortedSchema()) + "\n";
}

if (require.main === module) {
  writeFileSync(SCHEMA_FILE, printedSchema());
  console.log(`Wrote ${SCHEMA_FILE}`);
}
