import "reflect-metadata";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { graphqlSchema, rawRestRoutes, restRoutes } from "../app/modules";
import { openApiDocument } from "../rest/openapi";
import { compileRoutes } from "../rest/shim";

/** openapi.json at the repository's top level: what /api/openapi.json serves, for linters and client generators. */
export const OPENAPI_FILE = path.join(__dirname, "../../../openapi.json");

export function openApiText(): string {
  const schema = graphqlSchema();
  return JSON.stringify(openApiDocument(schema, compileRoutes(schema, restRoutes), rawRestRoutes), null, 2) + "\n";
}

if (require.main === module) {
  writeFileSync(OPENAPI_FILE, openApiText());
  console.log(`Wrote ${OPENAPI_FILE}`);
}
