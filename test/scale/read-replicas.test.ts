import { execFileSync } from "node:child_process";
import { Client, PoolClient } from "pg";
import { TestOrganization, TestService } from "../support/harness";

/** The primary's server (possibly through PgBouncer) and a streaming replica of it (`.ci/scale-parts` makes one). */
const PRIMARY = process.env.TEST_DATABASE_URL;
const REPLICA = process.env.TEST_REPLICA_URL;
/** The replica's cluster ("15 replica"), when the tests may stop and start it: only a replica made for the tests. */
const REPLICA_CLUSTER = process.env.TEST_REPLICA_CLUSTER;
/** A replica nobody listens for. */
const CLOSED = "postgresql://postgres@127.0.0.1:1/closed";

type Health = { name: string; role: string; status: string; lagMs?: number };

/**
 * Waits until `condition` holds. A wait that outlasts two minutes fails with `what`: a replica that
 * stopped replaying would otherwise hold the whole run until jest's own timeout.
 */
async function until(condition: () => Promise<boolean>, what = "a condition"): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await condition().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Waited two minutes for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One statement on a connection of its own: a connection kept open would break when the replica stops. */
async function queryOn<R>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

function onDatabase(server: string, databaseUrl: string): string {
  const url = new URL(server);
  url.pathname = new URL(databaseUrl).pathname;
  return url.toString();
}

if (!PRIMARY || !REPLICA)
  console.warn(
    "Skipped: read replicas (set TEST_REPLICA_URL to a streaming replica of TEST_DATABASE_URL's server, e.g. postgresql://postgres@127.0.0.1:5433/test)",
  );

(PRIMARY && REPLICA ? describe : describe.skip)("reads that may lag, on a streaming replica", () => {
  let t: TestService;
  let org: TestOrganization;
  /** A token of a second API key: a client that never writes. */
  let reader: string;
  let replicaDb: string;
  const ids: Record<string, string> = {};
  const range = "startDate=2026-02-23&endDate=2026-03-01";

  const readyz = async (service: TestService): Promise<Health[]> => (await service.http.get("/readyz")).body.databases;
  /** Sequential and index scans of the shifts table counted by the replica itself. */
  const replicaScans = async () =>
    Number(
      (
        await queryOn<{ n: string }>(
          replicaDb,
          "SELECT coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0) AS n FROM pg_stat_user_tables WHERE relname = 'shifts'",
        )
      )[0].n,
    );
  /** Waits until the replica has replayed everything the primary has written so far. */
  const caughtUp = async () => {
    const [{ position }] = await t.runtime.db.query("SELECT pg_current_wal_lsn()::text AS position");
    await until(
      async () => (await queryOn<{ ok: boolean }>(REPLICA!, "SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok", [position]))[0].ok,
      `the replica to replay the primary's WAL up to ${position}`,
    );
  };
  const shiftIds = async (token: string) => {
    const res = await t.as(token).get(`/api/timesheets?${range}&locationId=${ids.location}`);
    expect(res.status).toBe(200);
    return (res.body.shifts as { id: string }[]).map((s) => s.id);
  };

  beforeAll(async () => {
    // Replicas never lag "too far" here, so that a paused one is still used: the reads' routing is what is tested.
    t = await TestService.start({ replicaServerUrls: [REPLICA!], env: { REPLICA_MAX_LAG_MS: "600000" } });
    replicaDb = onDatabase(REPLICA!, t.databaseUrl!);
    org = await t.organization();
    const api = t.as(org.token);
    const base = `/api/organizations/${org.id}`;
    ids.location = (await api.post(`${base}/locations`, { name: "Harbor", timezone: "UTC" })).body.id;
    ids.role = (await api.post(`${base}/roles`, { name: "Cook", hourlyWage: 20 })).body.id;
    ids.staff = (await api.post(`${base}/staff`, { name: "Ada Cook", roleIds: [ids.role], locationIds: [ids.location] })).body.id;
    for (const day of ["23", "24", "25"]) {
      const created = await api.post("/api/timesheets", {
        employeeId: ids.staff,
        locationId: ids.location,
        roleId: ids.role,
        startTime: `2026-02-${day}T09:00:00Z`,
        endTime: `2026-02-${day}T17:00:00Z`,
      });
      expect(created.status).toBe(201);
    }
    const key = await api.post(`${base}/api-keys`, { name: "Reports" });
    reader = await t.token(key.body.secret);
    await caughtUp();
    await until(async () => (await readyz(t)).some((d) => d.role === "replica" && d.status === "ok"));
  });
  afterAll(async () => {
    await queryOn(REPLICA!, "SELECT pg_wal_replay_resume()").catch(() => undefined);
    await t?.stop();
  });

  it("answers a report and an export from the replica, as the replica's own statistics show", async () => {
    const before = await replicaScans();
    const report = await t.as(reader).get(`/api/timesheets/reports/employees?${range}`);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject([{ employeeId: ids.staff, shifts: 3, totalHours: 24 }]);
    await until(async () => (await replicaScans()) > before);

    const afterReport = await replicaScans();
    const exported = await t.as(reader).get(`/api/timesheets/export?${range}&format=json`);
    expect(exported.status).toBe(200);
    expect(JSON.parse(exported.text)).toHaveLength(3);
    await until(async () => (await replicaScans()) > afterReport);
  });

  it("shows a client its own write at once while the replica's replay is paused; a client that wrote nothing reads the replica", async () => {
    const writer = await t.staffWithToken(org, "Manager");
    await caughtUp();
    await queryOn(REPLICA!, "SELECT pg_wal_replay_pause()");
    try {
      await until(async () => (await queryOn<{ state: string }>(REPLICA!, "SELECT pg_get_wal_replay_pause_state() AS state"))[0].state === "paused");
      const created = await t.as(writer.token).post("/api/timesheets", {
        employeeId: ids.staff,
        locationId: ids.location,
        roleId: ids.role,
        startTime: "2026-02-26T09:00:00Z",
        endTime: "2026-02-26T17:00:00Z",
      });
      expect(created.status).toBe(201);
      // The staff member who wrote it, and the organization-wide token that wrote everything else, read the primary.
      expect(await shiftIds(writer.token)).toContain(created.body.id);
      expect(await shiftIds(org.token)).toContain(created.body.id);
      // The second key wrote nothing: its read comes from the paused replica, which has not seen the shift yet.
      const theirs = await shiftIds(reader);
      expect(theirs).toHaveLength(3);
      expect(theirs).not.toContain(created.body.id);
    } finally {
      await queryOn(REPLICA!, "SELECT pg_wal_replay_resume()");
    }
    await caughtUp();
    expect(await shiftIds(reader)).toHaveLength(4);
  });

  it("skips a replica that falls behind until it catches up, and one that is unreachable; /readyz shows each database", async () => {
    const lagging = await TestService.start({ replicaServerUrls: [REPLICA!, CLOSED], env: { REPLICA_MAX_LAG_MS: "1500" } });
    try {
      const laggingOrg = await lagging.organization();
      const key = await lagging.as(laggingOrg.token).post(`/api/organizations/${laggingOrg.id}/api-keys`, { name: "Reader" });
      const laggingReader = await lagging.token(key.body.secret);
      await caughtUp();
      await until(async () => (await readyz(lagging))[1].status === "ok");
      expect((await readyz(lagging)).map((d) => [d.role, d.status])).toEqual([
        ["primary", "ok"],
        ["replica", "ok"],
        ["replica", "down"],
      ]);
      const staffNames = async () =>
        ((await lagging.as(laggingReader).get(`/api/organizations/${laggingOrg.id}/staff`)).body as { name: string }[]).map((s) => s.name);

      await queryOn(REPLICA!, "SELECT pg_wal_replay_pause()");
      try {
        await lagging.as(laggingOrg.token).post(`/api/organizations/${laggingOrg.id}/staff`, { name: "Written while paused" });
        // The primary goes on writing (here: locations, one per look) while the replica stands still.
        let n = 0;
        await until(async () => {
          await lagging.as(laggingOrg.token).post(`/api/organizations/${laggingOrg.id}/locations`, { name: `Filler ${n++}`, timezone: "UTC" });
          return (await readyz(lagging))[1].status === "lag";
        });
        expect((await readyz(lagging))[1].lagMs).toBeGreaterThan(1500);
        // The reader wrote nothing, yet reads the primary: the replica is skipped.
        expect(await staffNames()).toContain("Written while paused");
      } finally {
        await queryOn(REPLICA!, "SELECT pg_wal_replay_resume()");
      }
      await until(async () => (await readyz(lagging))[1].status === "ok");
    } finally {
      await lagging.stop();
    }
  });

  it("lives through the replica ending a connection a check has out, and checks it again on a new one", async () => {
    await until(async () => (await readyz(t)).some((d) => d.role === "replica" && d.status === "ok"));
    // The pool the replica checks run on (not a public part of the routing).
    const [replica] = (t.runtime.reads as unknown as { replicas: { pool?: { connectToReplica(): Promise<PoolClient> } }[] }).replicas;
    const client = await replica.pool!.connectToReplica();
    const ended = new Promise((resolve) => client.once("end", resolve));
    const [{ pid }] = (await client.query("SELECT pg_backend_pid() AS pid")).rows;
    // As a replica that stops does: the server ends the session while the connection is out.
    await queryOn(REPLICA!, "SELECT pg_terminate_backend($1)", [pid]);
    await ended;
    await expect(client.query("SELECT 1")).rejects.toThrow();
    client.release();
    const again = await replica.pool!.connectToReplica();
    expect((await again.query("SELECT pg_is_in_recovery() AS recovering")).rows).toEqual([{ recovering: true }]);
    again.release();
    expect((await t.as(reader).get(`/api/timesheets/reports/employees?${range}`)).status).toBe(200);
  });

  (REPLICA_CLUSTER ? it : it.skip)("answers every read with the replica stopped, and uses it again once it is back", async () => {
    const reads = [
      `/api/timesheets/reports?${range}`,
      `/api/timesheets/reports/employees?${range}`,
      `/api/timesheets/export?${range}`,
      `/api/timesheets?${range}&locationId=${ids.location}`,
      `/api/organizations/${org.id}/staff`,
      `/api/organizations/${org.id}/audit-events`,
      `/api/organizations/${org.id}/events`,
    ];
    const cluster = (action: string) =>
      execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", ...REPLICA_CLUSTER!.split(" "), action], { stdio: "ignore" });
    cluster("stop");
    try {
      await until(async () => (await readyz(t))[1].status === "down");
      for (const path of reads) expect([path, (await t.as(reader).get(path)).status]).toEqual([path, 200]);
      expect((await t.http.get("/readyz")).status).toBe(200);
    } finally {
      cluster("start");
    }
    await until(async () => (await readyz(t))[1].status === "ok");
    const before = await replicaScans();
    expect((await t.as(reader).get(`/api/timesheets/reports?${range}`)).status).toBe(200);
    await until(async () => (await replicaScans()) > before);
  });
});
