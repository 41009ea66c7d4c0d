import { Webhook } from "standardwebhooks";
import type { CommittedEvent } from "../../src/modules/events";
import { checkWebhookUrl } from "../../src/modules/webhooks/webhook-targets";
import { TestService } from "../support/harness";
import { WebhookReceiver } from "../support/webhook-receiver";
import { workplace, Workplace } from "../support/workplace";
import { until } from "../support/until";

const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_RETRY_DELAYS_MS: "1000,2000,3000", WEBHOOK_POLL_MS: "20" };

describe("webhooks", () => {
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
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.answer = { status: 204 };
    // Tests move the clock on by days: a fresh token each time.
    w.org.token = await t.token(w.org.apiKey);
  });
  afterEach(() => t.runtime.db.query("DELETE FROM webhook_endpoints"));
  /** Moves the clock on, with a fresh token (tokens expire with the clock). */
  async function advance(ms: number) {
    t.clock.advance(ms);
    w.org.token = await t.token(w.org.apiKey);
  }

  const base = () => `/api/organizations/${w.org.id}/webhook-endpoints`;
  async function endpoint(fields: Record<string, unknown> = {}) {
    const res = await t.as(w.org.token).post(base(), { url: receiver.url, ...fields });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string; eventTypes: string[] };
  }
  /** The endpoint's attempts, newest first (`GET …/deliveries`). */
  const attempts = async (id: string) => (await t.as(w.org.token).get(`${base()}/${id}/deliveries`)).body as Record<string, any>[];

  it("manages endpoints: the secret shown once, unknown types refused, workers refused", async () => {
    const created = await endpoint({ eventTypes: ["role.created"], description: "payroll" });
    expect(created).toMatchObject({ secret: expect.stringMatching(/^whsec_/), eventTypes: ["role.created"], enabled: true });
    const read = await t.as(w.org.token).get(`${base()}/${created.id}`);
    expect(read.body).toMatchObject({ url: receiver.url, description: "payroll", secret: null });
    expect((await t.as(w.org.token).patch(`${base()}/${created.id}`, { enabled: false })).body).toMatchObject({
      enabled: false,
      disabledReason: "disabled by a manager",
    });
    expect((await t.as(w.org.token).post(base(), { url: receiver.url, eventTypes: ["shift.exploded"] })).status).toBe(400);
    expect((await t.as(w.workerToken).get(base())).status).toBe(403);
    expect((await t.as(w.org.token).get(base())).body.map((e: { id: string }) => e.id)).toContain(created.id);
    expect((await t.as(w.org.token).delete(`${base()}/${created.id}`)).status).toBe(204);
    expect((await t.as(w.org.token).get(`${base()}/${created.id}`)).status).toBe(404);
  });

  it("sends each event signed as Standard Webhooks says, verified by the standardwebhooks package", async () => {
    const { id, secret } = await endpoint();
    const api = t.as(w.org.token);
    const role = await api.post(`/api/organizations/${w.org.id}/roles`, { name: "Baker", hourlyWage: 18 });
    await api.patch(`/api/organizations/${w.org.id}/roles/${role.body.id}`, { name: "Head baker" });
    const got = await receiver.until((r) => r.some((x) => x.json.type === "role.updated"));
    for (const r of got) {
      expect(new Webhook(secret).verify(r.body, r.headers)).toEqual(r.json);
      expect(r.headers["webhook-id"]).toBe(r.json.id);
    }
    expect(() => new Webhook(`whsec_${Buffer.from("another secret of 32 bytes.......").toString("base64")}`).verify(got[0].body, got[0].headers)).toThrow();
    const updated = got.find((r) => r.json.type === "role.updated")!;
    expect(updated.json).toMatchObject({
      organizationId: w.org.id,
      sequence: expect.any(Number),
      data: { object: { id: role.body.id, name: "Head baker" }, previousAttributes: { name: "Baker" } },
    });
    // The receiver has answered; the outcome is recorded a moment later.
    await until(async () => (await attempts(id)).some((a) => a.eventType === "role.updated"));
    expect((await attempts(id)).filter((a) => a.eventType === "role.updated")).toEqual([
      expect.objectContaining({ eventId: updated.json.id, attempt: 1, status: "delivered", statusCode: 204, nextAttemptAt: null, error: null }),
    ]);
  });

  it("retries a receiver that is down until it is back, honouring Retry-After, and recovers events on request", async () => {
    const { id } = await endpoint({ eventTypes: ["location.created"] });
    receiver.answer = { status: 500, body: "x".repeat(10_000) };
    const api = t.as(w.org.token);
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await api.post(`/api/organizations/${w.org.id}/locations`, { name: `Down ${i}`, timezone: "UTC" })).body.id);
    const failedOnce = async () => (await attempts(id)).filter((a) => a.attempt === 1 && a.statusCode === 500).length === 3;
    await until(failedOnce);
    const [first] = await attempts(id);
    expect(first).toMatchObject({ status: "pending", error: "The receiver answered 500", durationMs: expect.any(Number) });
    expect(first.response.length).toBe(4096);
    expect(new Date(first.nextAttemptAt).getTime() - new Date(first.attemptedAt).getTime()).toBeGreaterThanOrEqual(800);

    receiver.answer = { status: 429, headers: { "retry-after": "120" } };
    t.clock.advance(1300);
    const retried = async () => (await attempts(id)).filter((a) => a.attempt === 2);
    await until(async () => (await retried()).length === 3);
    for (const a of await retried()) {
      expect(a.statusCode).toBe(429);
      expect(new Date(a.nextAttemptAt).getTime() - new Date(a.attemptedAt).getTime()).toBe(120_000);
    }

    receiver.answer = { status: 200 };
    await advance(120_000);
    await receiver.until((r) => r.length === 3);
    expect(receiver.received.map((r) => r.json.data.object.id).sort()).toEqual([...created].sort());
    await until(async () => (await attempts(id)).length === 9);
    // Each attempt of each delivery is listed: two failures, then the success.
    const all = await attempts(id);
    const events = [...new Set(all.map((a) => a.eventId))];
    expect(events).toHaveLength(3);
    for (const event of events) {
      expect(all.filter((a) => a.eventId === event).map((a) => [a.attempt, a.status, a.statusCode])).toEqual([
        [3, "delivered", 200],
        [2, "pending", 429],
        [1, "pending", 500],
      ]);
    }

    const recovered = await t.as(w.org.token).post(`${base()}/${id}/recover`, { since: "2000-01-01T00:00:00Z" });
    expect(recovered.status).toBe(202);
    expect(recovered.body.queued).toBeGreaterThanOrEqual(4);
    await receiver.until((r) => r.length >= 3 + recovered.body.queued);
  });

  it("disables an endpoint that answers 410 or fails for 5 days, recording webhook_endpoint.disabled", async () => {
    const gone = await endpoint({ eventTypes: ["role.created"] });
    const failing = await endpoint({ eventTypes: ["role.created"] });
    await t.runtime.db.query("UPDATE webhook_endpoints SET url = $2 WHERE id = $1", [gone.id, receiver.url.replace("/hooks", "/gone")]);
    receiver.byPath.set("/gone", { status: 410 });
    receiver.answer = { status: 503 };
    await t.as(w.org.token).post(`/api/organizations/${w.org.id}/roles`, { name: "Porter", hourlyWage: 15 });
    const api = t.as(w.org.token);
    await until(async () => (await api.get(`${base()}/${gone.id}`)).body.enabled === false);
    expect((await api.get(`${base()}/${gone.id}`)).body.disabledReason).toBe("the receiver answered 410 Gone");
    await until(async () => (await attempts(failing.id)).some((a) => a.attempt === 1 && a.statusCode === 503));
    await advance(86_400_000);
    await until(async () => (await attempts(failing.id)).some((a) => a.attempt === 2 && a.statusCode === 503));
    expect((await t.as(w.org.token).get(`${base()}/${failing.id}`)).body.enabled).toBe(true);
    await advance(4 * 86_400_000 + 5_000);
    const fresh = t.as(w.org.token);
    await until(async () => (await fresh.get(`${base()}/${failing.id}`)).body.enabled === false);
    expect((await fresh.get(`${base()}/${failing.id}`)).body.disabledReason).toBe("failing for 5 days");
    const events = (await fresh.get(`/api/organizations/${w.org.id}/events?types=webhook_endpoint.disabled`)).body;
    const disabled = events.map((e: { data: { object: { id: string } } }) => e.data.object.id);
    expect(disabled.filter((id: string) => id === gone.id || id === failing.id)).toEqual([gone.id, failing.id]);
    receiver.byPath.clear();
  });

  it("signs with both secrets for 24 hours after a rotation, then with the new one", async () => {
    const token = w.org.token;
    const { id, secret: old } = await endpoint({ eventTypes: ["role.created"] });
    const rotated = await t.as(token).post(`${base()}/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).not.toBe(old);
    await t.as(token).post(`/api/organizations/${w.org.id}/roles`, { name: "Runner", hourlyWage: 15 });
    const [both] = await receiver.until((r) => r.length === 1);
    expect(both.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(old).verify(both.body, both.headers)).toEqual(both.json);
    expect(new Webhook(fresh).verify(both.body, both.headers)).toEqual(both.json);
    // The attempt's outcome is recorded before the clock moves on: a lease still open a day later
    // would rightly be tried again (at least once), and the receiver would see the event twice.
    await until(async () => (await attempts(id)).some((a) => a.statusCode >= 200 && a.statusCode < 300));

    await advance(24 * 3_600_000 + 1000);
    const later = t.as(w.org.token);
    expect((await later.post(`${base()}/${id}/test`)).status).toBe(202);
    const [, ping] = await receiver.until((r) => r.length === 2);
    expect(ping.json.type).toBe("webhook_endpoint.test");
    expect(ping.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(() => new Webhook(old).verify(ping.body, ping.headers)).toThrow();
    expect(new Webhook(fresh).verify(ping.body, ping.headers)).toEqual(ping.json);
  });

  it("refuses the IPv6 forms that carry or reach an IPv4 address, and the 6to4 relays", async () => {
    const refused = [
      "::10.0.0.1",
      "::8.8.8.8",
      "::ffff:10.0.0.1",
      "2002:a00:1::1",
      "2002:808:808::1",
      "64:ff9b::a00:1",
      "64:ff9b:1::a00:1",
      "fec0::1",
      "2001::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    ];
    for (const address of refused) {
      await expect(checkWebhookUrl(`https://[${address}]/hook`, false)).rejects.toMatchObject({ status: 400 });
    }
    await expect(checkWebhookUrl("https://192.88.99.1/hook", false)).rejects.toMatchObject({ status: 400 });
    await expect(checkWebhookUrl("https://[2606:4700:4700::1111]/hook", false)).resolves.toBe("https://[2606:4700:4700::1111]/hook");
  });

  it("refuses private, loopback and link-local targets and plain http unless the setting allows them", async () => {
    for (const url of [
      "http://example.com/hook",
      "https://127.0.0.1/hook",
      "https://10.1.2.3/hook",
      "https://169.254.169.254/latest",
      "https://[::1]/hook",
      "https://[::ffff:192.168.0.1]/x",
      "https://localhost/hook",
    ]) {
      // The refusal names the setting a developer with a receiver on their own machine needs.
      await expect(checkWebhookUrl(url, false)).rejects.toMatchObject({ status: 400, message: expect.stringContaining("WEBHOOK_ALLOW_PRIVATE_TARGETS=true") });
    }
    await expect(checkWebhookUrl("https://93.184.215.14/hook", false)).resolves.toBe("https://93.184.215.14/hook");
    await expect(checkWebhookUrl("http://127.0.0.1:9/x", true)).resolves.toBe("http://127.0.0.1:9/x");

    const strict = await TestService.start({ env: { WEBHOOK_POLL_MS: "20" } });
    try {
      const org = await strict.organization("Strict");
      const res = await strict.as(org.token).post(`/api/organizations/${org.id}/webhook-endpoints`, { url: receiver.url });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe("url");
      // A target that turned private after it was saved is refused at delivery time.
      const [{ id }] = await strict.runtime.db.query("INSERT INTO webhook_endpoints (organization_id, url) VALUES ($1, $2) RETURNING id", [
        org.id,
        receiver.url.replace("http:", "https:"),
      ]);
      await strict.as(org.token).post(`/api/organizations/${org.id}/webhook-endpoints/${id}/test`);
      await until(async () => (await strict.as(org.token).get(`/api/organizations/${org.id}/webhook-endpoints/${id}/deliveries`)).body.length > 0);
      const [delivery] = (await strict.as(org.token).get(`/api/organizations/${org.id}/webhook-endpoints/${id}/deliveries`)).body;
      expect(delivery).toMatchObject({ status: "pending", statusCode: null, error: "127.0.0.1 is not a public address" });
      expect(receiver.received).toEqual([]);
    } finally {
      await strict.stop();
    }
  });
});

describe("waking the delivery worker", () => {
  let t: TestService;
  let w: Workplace;
  let receiver: WebhookReceiver;
  // No polling in the test's time: what wakes the worker is the events alone.
  beforeAll(async () => {
    t = await TestService.start({ env: { ...ENV, WEBHOOK_POLL_MS: "3600000" } });
    w = await workplace(t);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await t.stop();
    await receiver.close();
  });

  it("an event tells how many deliveries it made, and only one that made some wakes the worker", async () => {
    const { feed, dispatcher } = t.runtime.events;
    const heard: CommittedEvent[] = [];
    feed.on("event", (e: CommittedEvent) => heard.push(e));
    const wake = jest.spyOn(dispatcher, "wake");
    const api = t.as(w.org.token);
    const role = async (name: string) => {
      const before = heard.length;
      expect((await api.post(`/api/organizations/${w.org.id}/roles`, { name })).status).toBe(201);
      while (heard.length === before) await new Promise((r) => setTimeout(r, 5));
      return heard[heard.length - 1];
    };
    try {
      expect((await role("Quiet")).deliveries).toBe(0);
      expect(wake).not.toHaveBeenCalled();
      expect((await api.post(`/api/organizations/${w.org.id}/webhook-endpoints`, { url: receiver.url, eventTypes: ["role.created"] })).status).toBe(201);
      wake.mockClear();
      expect((await role("Heard")).deliveries).toBe(1);
      expect(wake).toHaveBeenCalled();
      await receiver.until((received) => received.some((r) => r.json.type === "role.created"));
    } finally {
      wake.mockRestore();
    }
  });
});
