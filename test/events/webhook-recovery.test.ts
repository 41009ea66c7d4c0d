import { TestService } from "../support/harness";
import { WebhookReceiver } from "../support/webhook-receiver";
import { workplace, Workplace } from "../support/workplace";

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
  WEBHOOK_RETRY_DELAYS_MS: "1000,2000,3000",
  WEBHOOK_POLL_MS: "20",
  RATE_LIMIT_POINTS: "100000",
  RATE_LIMIT_WINDOW_SECONDS: "3600",
};

describe("bounded webhook queues", () => {
  let t: TestService;
  let w: Workplace;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await TestService.start({ env: ENV });
    w = await workplace(t);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.stop();
    await receiver.close();
  });

  const base = () => `${w.orgBase}/webhook-endpoints`;
  const remaining = async () => Number(/r=(\d+)/.exec((await t.as(w.org.token).get(w.orgBase)).headers["ratelimit"])![1]);

  it("queues an event once however often it is recovered, spends a point per delivery queued, and refuses a disabled endpoint", async () => {
    for (let i = 0; i < 5; i++) expect((await t.as(w.org.token).post(`${w.orgBase}/roles`, { name: `Recovered ${i}` })).status).toBe(201);
    receiver.hold = true;
    const created = await t.as(w.org.token).post(base(), { url: receiver.url, eventTypes: ["role.created"] });
    const recover = () => t.as(w.org.token).post(`${base()}/${created.body.id}/recover`, { since: "2020-01-01T00:00:00Z" });
    const before = await remaining();
    const [{ events }] = await t.runtime.db.query("SELECT count(*)::int AS events FROM events WHERE organization_id = $1 AND type = 'role.created'", [
      w.org.id,
    ]);
    expect(events).toBeGreaterThanOrEqual(5);
    const first = await recover();
    expect(first.body).toEqual({ queued: events });
    // One point for the second read of the budget, one for the call, one more for each delivery past the first.
    expect(before - (await remaining())).toBe(1 + 1 + (events - 1));
    const again = await Promise.all([recover(), recover()]);
    expect(again.map((r) => r.body.queued)).toEqual([0, 0]);
    const [{ n }] = await t.runtime.db.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1", [created.body.id]);
    expect(n).toBe(events);
    expect((await t.as(w.org.token).patch(`${base()}/${created.body.id}`, { enabled: false })).status).toBe(200);
    const refused = await recover();
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("ENDPOINT_DISABLED");
    receiver.release();
  });

  it("forgets test pings and their attempts once events of their age are forgotten", async () => {
    const created = await t.as(w.org.token).post(base(), { url: receiver.url });
    const ping = await t.as(w.org.token).post(`${base()}/${created.body.id}/test`);
    expect(ping.status).toBe(202);
    while ((await t.runtime.db.query("SELECT 1 FROM webhook_attempts WHERE delivery_id = $1", [ping.body.id])).length === 0)
      await new Promise((r) => setTimeout(r, 20));
    const old = new Date(t.clock.now().getTime() - 31 * 86_400_000);
    await t.runtime.db.query("UPDATE webhook_deliveries SET created_at = $2 WHERE id = $1", [ping.body.id, old]);
    const fresh = await t.as(w.org.token).post(`${base()}/${created.body.id}/test`);
    expect(await t.runtime.services.webhooks.prunePings()).toBe(1);
    expect(await t.runtime.db.query("SELECT 1 FROM webhook_attempts WHERE delivery_id = $1", [ping.body.id])).toHaveLength(0);
    expect(await t.runtime.db.query("SELECT 1 FROM webhook_deliveries WHERE id = $1", [fresh.body.id])).toHaveLength(1);
  });
});
