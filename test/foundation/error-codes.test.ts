import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { GraphQLError } from "graphql";
import { AppError } from "../../src/errors/app-error";
import { refusal, toClientError } from "../../src/errors/client-error";
import { ERROR_CODES, ErrorCode } from "../../src/errors/error-codes";
import { REST_DOC_FILE, restDocText } from "../../src/cli/emit-openapi";

const SRC = path.join(__dirname, "../../../src");
const CODES = Object.keys(ERROR_CODES) as ErrorCode[];

function sourceTexts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceTexts(full);
    return entry.name.endsWith(".ts") ? [readFileSync(full, "utf8")] : [];
  });
}

describe("the error-code catalog", () => {
  it("gives every code a client or service status", () => {
    for (const code of CODES) expect([code, ERROR_CODES[code].status >= 400 && ERROR_CODES[code].status < 600]).toEqual([code, true]);
  });

  it("answers every code with its status in REST and its code in GraphQL", () => {
    for (const code of CODES) {
      const { status } = ERROR_CODES[code];
      expect(refusal(code, "m")).toMatchObject({ code, status });
      const raised = new GraphQLError("m", { path: ["field"], originalError: new AppError(code, "m") });
      expect(toClientError(raised)).toMatchObject({ code, status, internal: false });
    }
  });

  it("keeps the status of the service's own codes on errors about the document", () => {
    for (const code of ["QUERY_TOO_DEEP", "FORBIDDEN", "UNAUTHENTICATED"] as const) {
      expect(toClientError(new GraphQLError("m", { extensions: { code } }))).toMatchObject({ code, status: ERROR_CODES[code].status });
    }
    expect(toClientError(new GraphQLError("m", { extensions: { code: "GRAPHQL_VALIDATION_FAILED" } }))).toMatchObject({ code: "BAD_REQUEST", status: 400 });
  });

  // AppError, conflict() and refusal() take only catalog codes (the compiler holds them); a GraphQL
  // error's extensions are the one place a code is still written as free text.
  it("holds every code the source answers with", () => {
    const named = new Set(sourceTexts(SRC).flatMap((text) => [...text.matchAll(/extensions: \{[^}]*\bcode: "([A-Z][A-Z_]+)"/g)].map((m) => m[1])));
    expect(named.has("QUERY_TOO_DEEP")).toBe(true);
    expect([...named].filter((code) => !CODES.includes(code as ErrorCode))).toEqual([]);
  });

  it("is the table docs/rest.md lists (run `npm run openapi` after changing it)", () => {
    const doc = readFileSync(REST_DOC_FILE, "utf8");
    expect(doc).toBe(restDocText(doc));
    for (const code of CODES) expect(doc).toContain(`| \`${code}\` | ${ERROR_CODES[code].status} |`);
  });
});
