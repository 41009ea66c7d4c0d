import { TestService } from "../support/harness";
import { WebhookReceiver } from "../support/webhook-receiver";
import { workplace } from "../support/workplace";

const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_RETRY_DELAYS_MS: "1000,2000,3000", WEBHOOK_POLL_MS: "20" };

describe("one receiver's answer cannot break the recording of others'", () => {
  let t: TestService;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await TestService.start({ env: ENV });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.stop();
    await receiver.close();
  });

  it("stores an answer holding NUL and invalid UTF-8 cleaned, and every delivery is sent once", async () => {
    const bad = await workplace(t);
    const good = await workplace(t);
    receiver.byPath.set("/bad", { status: 200, body: "ok\u0000\udc00 then \u0000" });
    receiver.byPath.set("/good", { status: 200, body: "fine" });
    for (const [w, path] of [
      [bad, "/bad"],
      [good, "/good"],
    ] as const) {
      const res = await t.as(w.org.token).post(`${w.orgBase}/webhook-endpoints`, { url: receiver.url.replace(/\/hooks$/, path), eventTypes: ["role.created"] });
      expect(res.status).toBe(201);
    }
    // Both organizations' events at once, so that their outcomes are recorded together.
    await Promise.all(Array.from({ length: 6 }, (_, i) => [bad, good].map((w) => t.as(w.org.token).post(`${w.orgBase}/roles`, { name: `Role ${i}` }))).flat());
    const settled = async () => {
      const [{ delivered }] = await t.runtime.db.query("SELECT count(*)::int AS delivered FROM webhook_deliveries WHERE status = 'delivered'");
      return delivered === 12;
    };
    while (!(await settled())) await new Promise((resolve) => setTimeout(resolve, 50));
    const attempts = await t.runtime.db.query("SELECT delivery_id, count(*)::int AS n FROM webhook_attempts GROUP BY delivery_id");
    expect(attempts).toHaveLength(12);
    expect(attempts.every((a: { n: number }) => a.n === 1)).toBe(true);
    expect(receiver.arrivals).toHaveLength(12);
    const [stored] = await t.runtime.db.query(
      "SELECT d.last_response FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.url LIKE '%/bad' LIMIT 1",
    );
    expect(stored.last_response).toBe("ok\ufffd\ufffd then \ufffd");
  });
});
