import { TestService } from "../support/harness";
import { ServiceProcess } from "../support/service-process";
import { WebhookReceiver } from "../support/webhook-receiver";

// Claims and leases across processes need a real PostgreSQL server.
const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
  WEBHOOK_LEASE_MS: "3000",
  WEBHOOK_RETRY_DELAYS_MS: "200,200,200,200,200,200,200,200,200",
  WEBHOOK_POLL_MS: "50",
  LOG_LEVEL: "warn",
};

describe("webhook delivery across service processes", () => {
  let t: TestService;
  let receiver: WebhookReceiver;
  let processes: ServiceProcess[] = [];
  beforeAll(async () => {
    t = await TestService.start({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } });
    // The test's own process only writes: the service processes deliver.
    await t.runtime.events.dispatcher.stop();
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    processes = [];
  });
  afterAll(async () => {
    await t?.stop();
    await receiver?.close();
  });

  async function organizationWithEndpoint() {
    const org = await t.organization(`Org ${Math.random().toString(36).slice(2, 7)}`);
    const res = await t.as(org.token).post(`/api/organizations/${org.id}/webhook-endpoints`, { url: receiver.url, eventTypes: ["location.created"] });
    expect(res.status).toBe(201);
    return org;
  }

  async function locations(org: { id: string; token: string }, n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++)
      ids.push((await t.as(org.token).post(`/api/organizations/${org.id}/locations`, { name: `Site ${i}`, timezone: "UTC" })).body.id);
    const events = await t.runtime.db.query("SELECT id FROM events WHERE organization_id = $1 AND type = 'location.created' ORDER BY sequence", [org.id]);
    return events.map((e: { id: string }) => e.id);
  }

  onPostgres("two processes never send one attempt twice", async () => {
    receiver.received.length = 0;
    receiver.arrivals.length = 0;
    const org = await organizationWithEndpoint();
    processes = await Promise.all([ServiceProcess.start(t.databaseUrl, ENV), ServiceProcess.start(t.databaseUrl, ENV)]);
    const ids = await locations(org, 150);
    await receiver.until((r) => r.length >= ids.length); // every event
    expect(receiver.arrivals.sort()).toEqual([...ids].sort());
    const [{ attempts }] = await t.runtime.db.query("SELECT sum(attempts)::int AS attempts FROM webhook_deliveries WHERE organization_id = $1", [org.id]);
    expect(attempts).toBe(ids.length);
  });

  onPostgres("a process killed with SIGKILL in the middle of a batch loses nothing", async () => {
    receiver.received.length = 0;
    receiver.arrivals.length = 0;
    const org = await organizationWithEndpoint();
    receiver.hold = true;
    const doomed = await ServiceProcess.start(t.databaseUrl, ENV);
    const ids = await locations(org, 40);
    await receiver.until(() => receiver.heldCount >= 10); // attempts in flight
    await new Promise<void>((resolve) => {
      doomed.child.once("exit", () => resolve());
      doomed.child.kill("SIGKILL");
    });
    receiver.release();
    processes = [await ServiceProcess.start(t.databaseUrl, ENV)];
    await receiver.until((r) => new Set(r.map((x) => x.json.id)).size === ids.length); // every event after the kill
    expect([...new Set(receiver.received.map((r) => r.json.id))].sort()).toEqual([...ids].sort());
  });

  onPostgres("a receiver that is down for a while gets everything once it is back", async () => {
    receiver.received.length = 0;
    receiver.arrivals.length = 0;
    const org = await organizationWithEndpoint();
    receiver.answer = { status: 503 };
    processes = [await ServiceProcess.start(t.databaseUrl, { ...ENV, WEBHOOK_RETRY_DELAYS_MS: "300,600,1200,2400,4800,9600,9600,9600,9600" })];
    const ids = await locations(org, 30);
    await receiver.until(() => receiver.arrivals.length >= 60); // failed attempts
    const [{ failing }] = await t.runtime.db.query(
      "SELECT count(*)::int AS failing FROM webhook_deliveries WHERE organization_id = $1 AND status = 'pending' AND attempts >= 2",
      [org.id],
    );
    expect(failing).toBeGreaterThan(0);
    receiver.answer = { status: 200 };
    await receiver.until((r) => new Set(r.map((x) => x.json.id)).size === ids.length); // every event
  });
});
