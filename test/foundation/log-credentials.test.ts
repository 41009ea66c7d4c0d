import { Writable } from "node:stream";
import { createLogger, loggableUrl } from "../../src/http/logger";
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
    await t.http.get(`/api/organizations/${org.id}/locations?apiKey=${org.apiKey}&Authorization=${org.token}&secret=${org.apiKey}`).set("Authorization", `Bearer ${org.token}`);
    await t.http.get("/graphql?%74oken=" + org.token).set("Accept", "application/json");
    t.runtime.logger.info({ token: org.token, apiKey: org.apiKey, req: { headers: { authorization: `Bearer ${org.token}` } }, nested: { deeper: { secret: org.apiKey } } }, "a line with credentials");
    await new Promise<void>((resolve) => t.runtime.logger.flush(() => resolve()));
    expect(log.text).toContain('"msg":"request"');
    expect(log.text).toContain("a line with credentials");
    expect(log.text).toContain("token=[Redacted]");
    expect(log.text.includes(org.token)).toBe(false);
    expect(log.text.includes(org.apiKey)).toBe(false);
  });

  it("keeps every other part of a URL as it came", () => {
    expect(loggableUrl("/api/x?startDate=2026-03-01&TOKEN=abc&format=csv")).toBe("/api/x?startDate=2026-03-01&TOKEN=[Redacted]&format=csv");
    expect(loggableUrl("/api/x")).toBe("/api/x");
  });
});
