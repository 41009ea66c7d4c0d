import "reflect-metadata";
import http from "node:http";
import { AddressInfo } from "node:net";
import { Client } from "pg";
import request from "supertest";
import { loadConfig } from "../src/config";
import { startRuntime } from "../src/app/runtime";

/**
 * What events cost a write, and how fast webhooks go out: p50 of creating a shift through REST
 * with no endpoint and with one subscribed, then deliveries per second to a local receiver (a
 * backlog of events queued again with `recover`, sent by one service process).
 */
export async function webhookBench(
  serverUrl: string,
  writes = Number(process.env.BENCH_EVENT_WRITES ?? 300),
  backlog = Number(process.env.BENCH_DELIVERIES ?? 5000),
): Promise<string> {
  const name = "wf_bench_events";
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;

  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url.toString(),
    LOG_LEVEL: "warn",
    SCHEDULED_JOBS: "off",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    WEBHOOK_POLL_MS: "50",
  });
  const runtime = await startRuntime(config);
  try {
    const { organization, apiKey } = await runtime.services.organizations.createTrusted({ name: "Events Co", timezone: "UTC" });
    const { accessToken } = await runtime.services.access.exchangeToken({ apiKey });
    const app = request(runtime.app);
    const auth = { Authorization: `Bearer ${accessToken}` };
    const org = `/api/organizations/${organization.id}`;
    const locationId = (await app.post(`${org}/locations`).set(auth).send({ name: "Main", timezone: "UTC" })).body.id;
    const roleId = (await app.post(`${org}/roles`).set(auth).send({ name: "Cook", hourlyWage: 20 })).body.id;
    const employeeId = (
      await app
        .post(`${org}/staff`)
        .set(auth)
        .send({ name: "Ann", roleIds: [roleId], locationIds: [locationId] })
    ).body.id;
    let day = 0;
    const createShifts = async (): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < writes; i++) {
        day += 1;
        const date = new Date(Date.UTC(2020, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
        const started = performance.now();
        const res = await app
          .post("/api/timesheets")
          .set(auth)
          .send({ employeeId, locationId, roleId, startTime: `${date}T09:00:00`, endTime: `${date}T17:00:00` });
        times.push(performance.now() - started);
        if (res.status !== 201) throw new Error(`shift: ${res.status} ${JSON.stringify(res.body)}`);
      }
      return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
    };
    const without = await createShifts();
    await app
      .post(`${org}/webhook-endpoints`)
      .set(auth)
      .send({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, eventTypes: ["shift.created"] });
    const withEndpoint = await createShifts();
    while (received < writes) await new Promise((r) => setTimeout(r, 20));

    // A backlog: one pending delivery per endpoint and event (the queue holds no more), so the shift
    // events go to enough endpoints on the same receiver to make `backlog` deliveries.
    const target = { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, eventTypes: ["shift.created"] };
    for (let endpoints = 1; endpoints * writes * 2 < backlog; endpoints++) await app.post(`${org}/webhook-endpoints`).set(auth).send(target);
    await runtime.db.query(
      `INSERT INTO webhook_deliveries (organization_id, endpoint_id, event_id)
       SELECT $1, w.id, e.id FROM webhook_endpoints w CROSS JOIN events e
       WHERE w.organization_id = $1 AND e.organization_id = $1 AND e.type = 'shift.created' LIMIT $2`,
      [organization.id, backlog],
    );
    received = 0;
    const started = performance.now();
    runtime.events.dispatcher.wake();
    while (received < backlog) await new Promise((r) => setTimeout(r, 5));
    const seconds = (performance.now() - started) / 1000;
    return (
      `events: p50 of creating a shift through REST ${without.toFixed(1)} ms with no endpoint, ${withEndpoint.toFixed(1)} ms with one subscribed (${writes} each)\n` +
      `webhooks: ${backlog} deliveries to a local receiver in ${seconds.toFixed(2)} s = ${Math.round(backlog / seconds)} deliveries/s (goal ≥ 1000/s), one process`
    );
  } finally {
    await runtime.close();
    receiver.closeAllConnections();
    receiver.close();
  }
}

if (require.main === module) {
  webhookBench(process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres").then(
    (figures) => console.log(figures),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
