import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { OPENAPI_FILE, openApiText } from "../../src/cli/emit-openapi";
import { ROOT } from "../support/project-root";

const run = promisify(execFile);

/** Runs a linter's CLI with node, offline (no telemetry, no update check), and answers its JSON output. */
async function lint(cli: string, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [path.join(ROOT, "node_modules", cli), ...args], {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_UPDATE_NOTIFIER: "1" },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  return stdout;
}

describe("the OpenAPI document", () => {
  let dir: string;
  let file: string;
  const document = JSON.parse(openApiText());

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "openapi-"));
    file = path.join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(document));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is the one openapi.json holds (run `npm run openapi` after changing the API)", () => {
    expect(readFileSync(OPENAPI_FILE, "utf8")).toBe(openApiText());
  });

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const out = await lint("@redocly/cli/bin/cli.js", ["lint", file, "--config", path.join(ROOT, "redocly.yaml"), "--format=json"]);
    const report = JSON.parse(out.slice(out.indexOf("{"), out.lastIndexOf("}") + 1)) as { totals: { errors: number; warnings: number }; problems: unknown[] };
    console.log(`Redocly recommended: ${report.totals.errors} errors, ${report.totals.warnings} warnings`);
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("passes Spectral's spectral:oas with nothing to say, down to hints", async () => {
    const out = await lint("@stoplight/spectral-cli/dist/index.js", [
      "lint",
      file,
      "--ruleset",
      path.join(ROOT, ".spectral.yaml"),
      "-F",
      "hint",
      "-f",
      "json",
      "--quiet",
    ]);
    const results = JSON.parse(out.slice(out.indexOf("["), out.lastIndexOf("]") + 1)) as { code: string; severity: number }[];
    console.log(
      `Spectral spectral:oas: ${results.filter((r) => r.severity === 0).length} errors, ${results.filter((r) => r.severity === 1).length} warnings, ${results.length} results in all`,
    );
    expect(results).toEqual([]);
  });

  it("names every body and answer, declares every error with the Error body, and one operationId style", () => {
    const operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([p, methods]) =>
      Object.entries(methods).map(([m, op]) => ({ where: `${m.toUpperCase()} ${p}`, op })),
    );
    expect(operations.length).toBeGreaterThan(90);
    for (const { where, op } of operations) {
      expect([where, op.operationId]).toEqual([where, expect.stringMatching(/^[a-z][A-Za-z0-9]*$/)]);
      expect([where, typeof op.description]).toEqual([where, "string"]);
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        const resolved = response.$ref ? document.components.responses[response.$ref.split("/").pop()] : response;
        for (const media of Object.values((resolved.content ?? {}) as Record<string, { schema: any }>)) {
          const schema = media.schema.type === "array" ? media.schema.items : media.schema;
          if (schema.type === "string" || op.operationId === "openApiDocument") continue;
          expect([where, status, schema.$ref]).toEqual([where, status, expect.stringMatching(/^#\/components\/schemas\/\w+$/)]);
          if (Number(status) >= 400) expect(schema.$ref).toBe("#/components/schemas/Error");
        }
      }
      if (op.requestBody)
        expect([where, op.requestBody.content["application/json"].schema.$ref]).toEqual([where, expect.stringMatching(/^#\/components\/schemas\//)]);
      if (op.security?.length !== 0) expect([where, op.responses["429"]]).toEqual([where, { $ref: "#/components/responses/TooManyRequests" }]);
    }
    expect(new Set(operations.map((o) => o.op.operationId)).size).toBe(operations.length);
    expect(document.components.responses.TooManyRequests.headers["Retry-After"]).toBeDefined();
  });

  it("declares what the answers really are: audit before/after objects, the JSON export rows, break bodies without locationId", () => {
    const schemas = document.components.schemas;
    expect(schemas.AuditEvent.properties.before).toMatchObject({ type: ["object", "null"] });
    const exported = document.paths["/api/timesheets/export"].get.responses["200"].content;
    expect(exported["application/json; charset=utf-8"].schema).toEqual({ type: "array", items: { $ref: "#/components/schemas/ShiftExportRow" } });
    const breakBody = document.paths["/api/organizations/{org}/locations/{id}/breaks"].post.requestBody.content["application/json"].schema;
    const body = schemas[breakBody.$ref.split("/").pop()];
    expect(Object.keys(body.properties)).not.toContain("locationId");
    expect(body.required).not.toContain("locationId");
  });

  it("says what the service does: If-Match only where a record exists, the page size the service takes, how to read the CSV export", () => {
    type Operation = { description: string; parameters: { $ref?: string; name?: string; description?: string }[]; responses: Record<string, unknown> };
    const operations = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([at, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ at, method, op })),
    );
    const ifMatch = (op: Operation) => op.parameters.some((p) => p.$ref === "#/components/parameters/IfMatch");
    const creates = operations.filter(({ method, op }) => method === "post" && op.responses["201"]);
    expect(creates.length).toBeGreaterThan(10);
    for (const { op } of creates) expect([ifMatch(op), "412" in op.responses]).toEqual([false, false]);
    expect(ifMatch(document.paths["/api/organizations/{org}/roles/{id}"].patch)).toBe(true);

    const text = JSON.stringify(document);
    expect(text).not.toMatch(/at most 100\b|entrys/);
    const lists = operations.filter(({ op }) => op.parameters.some((p) => p.name === "limit"));
    expect(lists.length).toBeGreaterThan(10);
    for (const { op } of lists) {
      expect(op.description).toContain("limit, at most 1000, the default");
      expect(op.parameters.find((p) => p.name === "limit")!.description).toBe("Page size, 1 to 1000 (default 1000)");
    }
    expect(document.components.schemas.Event.properties.sequence.type).toBe("integer");
    expect(document.paths["/api/organizations/{org}/locations/{locationId}/schedules"].post.description).toMatch(
      /^Add a published schedule entry at once, bypassing drafts and publishing/,
    );
    expect(document.paths["/api/timesheets/export"].get.description).toContain('parseAs: "text"');
  });
});
