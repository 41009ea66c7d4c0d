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

/** Whether this cluster (not another of the machine's, such as a replica) is running. */
function clusterOnline(): boolean {
  const [version, name] = CLUSTER.split(" ");
  return execFileSync("pg_lsclusters", ["-h"])
    .toString()
    .split("\n")
    .some((line) => {
      const [v, n, , status] = line.trim().split(/\s+/);
      return v === version && n === name && status.startsWith("online");
    });
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
    if (!clusterOnline()) cluster("start");
    await waitForServer(process.env.TEST_DATABASE_URL!);
    await service.stop();
    await database.drop();
  });

  it("answers 503 while PostgreSQL is down, reports it in /readyz, recovers by itself, and half-writes nothing", async () => {
    const call = (path: string, init: RequestInit = {}) => fetch(`${service.url}${path}`, init);
    const created = await (
      await call("/api/organizations", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${PLATFORM_KEY}` },
        body: JSON.stringify({ name: "Outage Co" }),
      })
    ).json();
    const token = (
      await (
        await call("/api/auth/token-exchange", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ apiKey: created.apiKey }),
        })
      ).json()
    ).accessToken;
    const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const base = `/api/organizations/${created.organization.id}`;
    const staffPath = `${base}/staff`;
    const post = async (path: string, body: object) => (await call(path, { method: "POST", headers: auth, body: JSON.stringify(body) })).json();
    // Each write is three rows (the staff member, a role and a location of theirs): one of them
    // missing would be a half-write.
    const roleIds = [(await post(`${base}/roles`, { name: "Cook" })).id];
    const locationIds = [(await post(`${base}/locations`, { name: "Kitchen", timezone: "UTC" })).id];
    const write = (i: number) =>
      call(staffPath, { method: "POST", headers: auth, body: JSON.stringify({ name: `S${i}`, externalEmployeeId: `E${i}`, roleIds, locationIds }) });
    expect((await write(0)).status).toBe(201);

    // Load runs across the outage: writes keep coming while the server stops and starts.
    let running = true;
    let sent = 0;
    const statuses: number[] = [];
    let loadRunning!: () => void;
    const loadIsRunning = new Promise<void>((resolve) => (loadRunning = resolve));
    const loader = (async () => {
      while (running) {
        const res = await write(++sent).catch(() => undefined);
        statuses.push(res?.status ?? 0);
        if (statuses.filter((s) => s === 201).length === 5) loadRunning();
      }
    })();
    await loadIsRunning;
    cluster("stop");

    const during = await call(staffPath, { headers: auth });
    expect(during.status).toBe(503);
    expect((await during.json()).error.code).toMatch(/SERVICE_UNAVAILABLE|STATEMENT_TIMEOUT/);
    // A write of its own while the server is down: refused whole.
    const refusedWrite = await write(-1);
    expect(refusedWrite.status).toBe(503);
    const ready = await call("/readyz");
    expect(ready.status).toBe(503);

    cluster("start");
    await waitForServer(process.env.TEST_DATABASE_URL!);
    // Recovers by itself: /readyz turns 200 again with no restart (the test's timeout ends a hang; a
    // busy machine may take a while to reconnect the pool).
    while ((await call("/readyz")).status !== 200) await new Promise((r) => setTimeout(r, 200));
    running = false;
    await loader;

    // Never a 500; every write either happened whole (201) or was refused (503), and the load met the outage.
    expect(statuses.filter((s) => ![201, 503].includes(s))).toEqual([]);
    expect(statuses).toContain(503);
    // Every staff member of the organization, straight from the database (no page limit), with their links.
    const db = new Client({ connectionString: database.url! });
    await db.connect();
    const rows: { name: string; roles: number; locations: number }[] = await db
      .query(
        `SELECT s.name, (SELECT count(*) FROM staff_roles r WHERE r.staff_id = s.id)::int AS roles, (SELECT count(*) FROM staff_locations l WHERE l.staff_id = s.id)::int AS locations
           FROM staff_members s WHERE s.organization_id = $1`,
        [created.organization.id],
      )
      .then((r) => r.rows)
      .finally(() => db.end());
    expect(rows.map((r) => r.name)).not.toContain("S-1");
    const ok = statuses.filter((s) => s === 201).length;
    // A write whose commit was in flight when the server went down may have landed unanswered.
    expect(rows.length - 1 - ok).toBeGreaterThanOrEqual(0);
    expect(rows.length - 1 - ok).toBeLessThanOrEqual(1);
    // Each staff member created has its role and location: nothing half-written.
    expect(rows.filter((r) => r.roles !== 1 || r.locations !== 1)).toEqual([]);
  });
});
