import "reflect-metadata";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { graphqlSchema, rawRestRoutes, restRoutes } from "../app/modules";
import { errorCodeTable } from "../errors/error-codes";
import { openApiDocument } from "../rest/openapi";
import { compileRoutes } from "../rest/shim";

/** openapi.json at the repository's top level: what /api/openapi.json serves, for linters and client generators. */
export const OPENAPI_FILE = path.join(__dirname, "../../../openapi.json");

export function openApiText(): string {
  const schema = graphqlSchema();
  return JSON.stringify(openApiDocument(schema, compileRoutes(schema, restRoutes), rawRestRoutes), null, 2) + "\n";
}

/** docs/rest.md, whose table of error codes is the catalog's (`errors/error-codes.ts`). */
export const REST_DOC_FILE = path.join(__dirname, "../../../docs/rest.md");
const CODES_START = "<!-- error codes: written by `npm run openapi` from src/errors/error-codes.ts -->";
const CODES_END = "<!-- end of error codes -->";

/** The REST document with its error-code table rewritten from the catalog. */
export function restDocText(current: string): string {
  const start = current.indexOf(CODES_START);
  const end = current.indexOf(CODES_END);
  if (start < 0 || end < start) throw new Error(`${REST_DOC_FILE} has lost its error-code markers`);
  return `${current.slice(0, start)}${CODES_START}\n${errorCodeTable()}\n${current.slice(end)}`;
}

if (require.main === module) {
  writeFileSync(OPENAPI_FILE, openApiText());
  writeFileSync(REST_DOC_FILE, restDocText(readFileSync(REST_DOC_FILE, "utf8")));
  console.log(`Wrote ${OPENAPI_FILE} and the error codes of ${REST_DOC_FILE}`);
}
