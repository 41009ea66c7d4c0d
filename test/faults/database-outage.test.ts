import { execFileSync } from "node:child_process";
import { Client } from "pg";
import { PLATFORM_KEY } from "../support/harness";
import { ServiceProcess } from "../support/service-process";
import { createTestDatabase, TestDatabase } from "../support/test-database";

/**
 * PostgreSQL stopped and started under load. It stops the machine's PostgreSQL cluster, so it runs
 * alone (`npm run test:faults`, after the main suite in CI), never beside other tests.
 */
const CLUSTER = process.env.PG_CLUSTER ?? "15 main";

function cluster(action: "start" | "stop"): void {
  const [version, name] = CLUSTER.split(" ");
  execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, name, action], { stdio: "ignore" });
}

async function waitForServer(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const c = new Client({ connectionString: url });
    try {
      await c.connect();
      await c.end();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error("PostgreSQL did not come back");
}

describe("a database outage under load", () => {
  let database: TestDatabase;
  let service: ServiceProcess;
  beforeAll(async () => {
    database = await createTestDatabase();
    service = await ServiceProcess.start(database.url!);
  });
  afterAll(async () => {
    // The test starts the server again itself; this only matters when it failed half-way.
    if (!/online/.test(execFileSync("pg_lsclusters", ["-h"]).toString())) cluster("start");
    await waitForServer(process.env.TEST_DATABASE_URL!);
    await service.stop();
    await database.drop();
  });

  it("answers 503 fast while PostgreSQL is down, reports it in /readyz, recovers by itself, and half-writes nothing", async () => {
    const call = (path: string, init: RequestInit = {}) => fetch(`${service.url}${path}`, init);
    const created = await (await call("/api/organizations", { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${PLATFORM_KEY}` }, body: JSON.stringify({ name: "Outage Co" }) })).json();
    const token = (await (await call("/api/auth/token-exchange", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ apiKey: created.apiKey }) })).json()).accessToken;
    const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const staffPath = `/api/organizations/${created.organization.id}/staff`;
    const write = (i: number) => call(staffPath, { method: "POST", headers: auth, body: JSON.stringify({ name: `S${i}`, externalEmployeeId: `E${i}` }) });
    expect((await write(0)).status).toBe(201);

    // Load runs across the outage: writes keep coming while the server stops and starts.
    let running = true;
    let sent = 0;
    const statuses: number[] = [];
    const loader = (async () => {
      while (running) {
        const res = await write(++sent).catch(() => undefined);
        statuses.push(res?.status ?? 0);
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    cluster("stop");

    const started = Date.now();
    const during = await call(staffPath, { headers: auth });
    expect(Date.now() - started).toBeLessThan(3000);
    expect([503]).toContain(during.status);
    expect((await during.json()).error.code).toMatch(/SERVICE_UNAVAILABLE|STATEMENT_TIMEOUT/);
    const ready = await call("/readyz");
    expect(ready.status).toBe(503);

    cluster("start");
    await waitForServer(process.env.TEST_DATABASE_URL!);
    let recovered = false;
    for (let i = 0; i < 50 && !recovered; i++) {
      recovered = (await call("/readyz")).status === 200;
      if (!recovered) await new Promise((r) => setTimeout(r, 200));
    }
    expect(recovered).toBe(true);
    running = false;
    await loader;

    // Never a 500; every write either happened whole (201) or was refused (503).
    expect(statuses.filter((s) => ![201, 503].includes(s))).toEqual([]);
    const list = await (await call(`${staffPath}?includeInactive=true`, { headers: auth })).json();
    const ok = statuses.filter((s) => s === 201).length;
    // A write whose commit was in flight when the server went down may have landed unanswered.
    expect(list.length - 1 - ok).toBeGreaterThanOrEqual(0);
    expect(list.length - 1 - ok).toBeLessThanOrEqual(1);
    // Each staff member created has its access role: nothing half-written.
    for (const s of list) expect(s.accessRoleId).toBeTruthy();
  });
});
