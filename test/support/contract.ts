import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import Ajv2020, { ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { Response } from "supertest";

/**
 * Every REST answer a test sees is checked against the OpenAPI document: its status must be
 * declared for the path and method, its body must match the schema declared for that status and
 * content type, the headers it sends must be declared, and an error must speak REST, not GraphQL.
 */

type Json = Record<string, any>;

const GRAPHQL_WORDS =
  /String!|Int!|Float!|ID!|Boolean!|cannot represent|of required type|Variable "\$|Field "|is not defined by type|Expected type|Syntax Error/;
/** Headers whose presence the document must announce. */
const ANNOUNCED_HEADERS = ["ETag", "X-Next-Cursor", "Link", "Idempotent-Replayed", "Idempotent-Redacted", "Retry-After", "RateLimit", "RateLimit-Policy"];

let document: Json | undefined;
let ajv: Ajv2020 | undefined;
let routes: { pattern: RegExp; template: string; params: number }[] = [];
const validators = new Map<string, ValidateFunction>();
let validated = 0;

/** Compiles the checks once per test worker: every service of the run serves the same document. */
function load(served: Json): Json {
  if (document) return document;
  document = served;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: "openapi" });
  routes = Object.keys(document.paths)
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\./g, "\\.").replace(/\{\w+\}/g, "[^/]+")}$`),
      params: (template.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params);
  return document;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

function validatorAt(at: string): ValidateFunction {
  let validate = validators.get(at);
  if (!validate) {
    validate = ajv!.compile({ $ref: `openapi#/${at}` });
    validators.set(at, validate);
  }
  return validate;
}

function resolve(value: Json): Json {
  return value.$ref
    ? resolve(
        value.$ref
          .slice(2)
          .split("/")
          .reduce((node: Json, key: string) => node[key.replace(/~1/g, "/").replace(/~0/g, "~")], document!),
      )
    : value;
}

function fail(where: string, problem: string, res: Response): never {
  throw new Error(`${where} answered ${res.status} against the OpenAPI document: ${problem}\n${res.text?.slice(0, 2000)}`);
}

/** Checks one answer; throws what does not match. */
export function checkAnswer(openapi: Json, method: string, url: string, res: Response): void {
  const pathname = new URL(url, "http://service").pathname;
  if (!pathname.startsWith("/api/") && pathname !== "/api") return;
  const doc = load(openapi);
  const where = `${method} ${pathname}`;
  if (!res.headers["x-request-id"]) fail(where, "no X-Request-Id", res);
  const match = routes.find((r) => r.pattern.test(pathname) && doc.paths[r.template][method.toLowerCase()]) ?? routes.find((r) => r.pattern.test(pathname));
  let responseAt: string;
  let response: Json;
  if (match && doc.paths[match.template][method.toLowerCase()]) {
    const operation = doc.paths[match.template][method.toLowerCase()];
    const declared = operation.responses[String(res.status)];
    if (!declared) fail(where, `status ${res.status} is not declared for ${method} ${match.template}`, res);
    response = resolve(declared);
    responseAt = declared.$ref ? declared.$ref.slice(2) : pointer("paths", match.template, method.toLowerCase(), "responses", String(res.status));
  } else {
    // No operation: a known path with another method is 405 with Allow, an unknown one 404.
    const expected = match ? 405 : 404;
    if (res.status !== expected) fail(where, `expected ${expected} for a ${match ? "method the path does not have" : "path the document does not have"}`, res);
    if (match && !res.headers.allow) fail(where, "405 without Allow", res);
    response = doc.components.responses.NotFound;
    responseAt = "components/responses/NotFound";
  }
  for (const header of ANNOUNCED_HEADERS) {
    if (res.headers[header.toLowerCase()] !== undefined && !response.headers?.[header])
      fail(where, `header ${header} is sent but not declared for ${res.status}`, res);
  }
  const content = (response.content ?? {}) as Json;
  if (Object.keys(content).length === 0) {
    if (res.text) fail(where, "a body where the document declares none", res);
  } else {
    const type = String(res.headers["content-type"] ?? "")
      .split(";")[0]
      .trim();
    const media = Object.keys(content).find((key) => key.split(";")[0].trim() === type);
    if (!media) fail(where, `content type ${type || "(none)"} is not declared (${Object.keys(content).join(", ")})`, res);
    const body = type === "application/json" ? JSON.parse(res.text) : res.text;
    const validate = validatorAt(`${responseAt}/${pointer("content", media, "schema")}`);
    if (!validate(body)) fail(where, ajv!.errorsText(validate.errors, { separator: "\n  " }), res);
    if (res.status >= 400) {
      const error = (body as { error: { message: string; details: { message: string }[] } }).error;
      for (const message of [error.message, ...error.details.map((d) => d.message)]) {
        if (GRAPHQL_WORDS.test(message)) fail(where, `the error speaks GraphQL: ${message}`, res);
      }
    }
  }
  validated++;
}

/** Writes this test file's count where the run's teardown sums them (see contract-count.ts). */
export function recordValidated(): void {
  const dir = process.env.REST_CONTRACT_DIR;
  if (!dir || validated === 0) return;
  mkdirSync(dir, { recursive: true });
  appendFileSync(path.join(dir, `${process.pid}.txt`), `${validated}\n`);
  validated = 0;
}
