import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { loadConfig } from "../../src/config";
import { createLogger, loggableUrl } from "../../src/http/logger";
import { PlatformSecrets } from "../../src/modules/organizations/platform-secrets";
import { TestService } from "../support/harness";

/** Every line the service logs, as written. */
class CapturedLog extends Writable {
  text = "";
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe("credentials never reach the log", () => {
  const log = new CapturedLog();
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start({ logger: createLogger("debug", log) });
  });
  afterAll(() => t.stop());

  it("writes request lines without the token or key of a query string, and redacts credential fields anywhere", async () => {
    const org = await t.organization("Log Lane");
    await t.http.get(`/graphql?token=${org.token}&query=%7B__typename%7D`).set("Accept", "application/json");
    await t.http
      .get(`/api/organizations/${org.id}/locations?apiKey=${org.apiKey}&Authorization=${org.token}&secret=${org.apiKey}`)
      .set("Authorization", `Bearer ${org.token}`);
    await t.http.get("/graphql?%74oken=" + org.token).set("Accept", "application/json");
    t.runtime.logger.info(
      { token: org.token, apiKey: org.apiKey, req: { headers: { authorization: `Bearer ${org.token}` } }, nested: { deeper: { secret: org.apiKey } } },
      "a line with credentials",
    );
    await new Promise<void>((resolve) => t.runtime.logger.flush(() => resolve()));
    expect(log.text).toContain('"msg":"request"');
    expect(log.text).toContain("a line with credentials");
    expect(log.text).toContain("token=[Redacted]");
    expect(log.text.includes(org.token)).toBe(false);
    expect(log.text.includes(org.apiKey)).toBe(false);
  });

  it("writes a generated platform key to an owner-only file beside the data directory, and only the file's name to the log", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "wf-platform-key-"));
    try {
      const dataDir = path.join(dir, "data");
      const said: string[] = [];
      const secrets = await PlatformSecrets.load(t.runtime.unitOfWork, { ...loadConfig({}), dataDir }, (message) => said.push(message));
      const file = `${dataDir}.platform-key`;
      const key = readFileSync(file, "utf8").trim();
      expect(key).toMatch(/^wfp_/);
      expect(secrets.isPlatformKey(key)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(said).toHaveLength(1);
      expect(said[0]).toContain(file);
      expect(said[0].includes(key)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps every other part of a URL as it came", () => {
    expect(loggableUrl("/api/x?startDate=2026-03-01&TOKEN=abc&format=csv")).toBe("/api/x?startDate=2026-03-01&TOKEN=[Redacted]&format=csv");
    expect(loggableUrl("/api/x")).toBe("/api/x");
  });
});
