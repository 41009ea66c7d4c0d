import request from "supertest";
import { Client } from "pg";
import { FixedClock } from "../src/common/clock";
import { loadConfig } from "../src/config";
import { startRuntime } from "../src/app/runtime";
import { percentile } from "./load";
import { seedBenchOrganization } from "./seed";

const NOW = "2026-06-15T12:00:00.000Z";
const PUNCHES = 200;
const STAFF = 2000;
const DAYS = 5;

/**
 * BENCH_ONLY=attendance, on DATABASE_URL (a database wf_bench_attendance is created) or the
 * embedded PGlite: a clock-in with every clock rule on (geofence, network, registered device,
 * early window, schedule required; the attendance policy saved), its median over 200 punches; then
 * the no-show job over 10,000 published entries (2,000 workers × 5 days, one in two worked), its
 * first run (writing the no-shows) and a second (finding nothing new).
 */
export async function attendanceBench(serverUrl: string | undefined): Promise<string[]> {
  let databaseUrl: string | undefined;
  if (serverUrl) {
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query("DROP DATABASE IF EXISTS wf_bench_attendance WITH (FORCE)");
    await admin.query("CREATE DATABASE wf_bench_attendance");
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = "/wf_bench_attendance";
    databaseUrl = url.toString();
  }
  const clock = new FixedClock(new Date(NOW));
  const config = {
    ...loadConfig({ ...process.env, DATA_DIR: "memory://", LOG_LEVEL: "warn", RATE_LIMIT_POINTS: "0", PLATFORM_API_KEY: "wfp_bench_attendance" }),
    scheduledJobs: false,
    statementTimeoutMs: 600_000,
  };
  const runtime = await startRuntime(databaseUrl ? { ...config, databaseUrl } : { ...config, databaseUrl: undefined }, { clock });
  try {
    const { organization, apiKey } = await runtime.services.organizations.createTrusted({ name: "Attendance bench", timezone: "UTC" });
    const org = organization.id;
    await seedBenchOrganization(runtime.db, org, { locations: 5, staff: STAFF, shiftsPerStaff: 1, firstDay: "2026-01-05" });
    const [{ id: staffId, location_id: locationId, role_id: roleId }] = await runtime.db.query(
      `SELECT s.id, sl.location_id, sr.role_id FROM staff_members s JOIN staff_locations sl ON sl.staff_id = s.id JOIN staff_roles sr ON sr.staff_id = s.id
        WHERE s.organization_id = $1 ORDER BY s.id LIMIT 1`,
      [org],
    );
    const { accessToken } = await runtime.services.access.exchangeToken({ apiKey, staffId });
    const api = (method: "put" | "post", path: string, body: object, device?: string) => {
      const req = request(runtime.app)[method](path).set("Authorization", `Bearer ${accessToken}`);
      if (device) req.set("X-Clock-Device", device);
      return req.send(body);
    };
    const manager = (await runtime.services.access.exchangeToken({ apiKey })).accessToken;
    const base = `/api/organizations/${org}`;
    const asManager = (method: "put" | "post", path: string, body: object) =>
      request(runtime.app)[method](path).set("Authorization", `Bearer ${manager}`).send(body);
    const device = (await asManager("post", `${base}/locations/${locationId}/clock-devices`, { name: "Kiosk" })).body.token as string;
    const fence = { latitude: 40.7128, longitude: -74.006, radiusMeters: 100 };
    await asManager("put", `${base}/locations/${locationId}/clock-rules`, {
      geofence: fence,
      allowedNetworks: ["127.0.0.0/8", "::1/128"],
      requireDevice: true,
      earlyClockInMinutes: 15,
      requireSchedule: true,
      enforcement: "BLOCK",
    });
    await asManager("put", `${base}/attendance-policy`, {});
    // The worker's entry: a long one from an hour ago, so that every punch is against it.
    await runtime.db.query(
      "INSERT INTO schedule_entries (organization_id, location_id, worker_id, role_id, start_time, end_time) VALUES ($1, $2, $3, $4, $5::timestamptz - interval '1 hour', $5::timestamptz + interval '20 hours')",
      [org, locationId, staffId, roleId, NOW],
    );
    const position = { latitude: fence.latitude, longitude: fence.longitude, accuracyMeters: 5 };
    const times: number[] = [];
    for (let i = 0; i < PUNCHES; i++) {
      clock.advance(1_000);
      const started = process.hrtime.bigint();
      const res = await api("post", "/api/time-tracking/clock-in", { locationId, roleId, ...position }, device);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (res.status !== 201) throw new Error(`clock-in: ${res.status} ${JSON.stringify(res.body)}`);
      clock.advance(1_000);
      await api("post", "/api/time-tracking/clock-out", position, device);
    }

    // 10,000 entries of the last days, one in two worked.
    await runtime.db.transaction(async (m) => {
      await m.query("SET LOCAL session_replication_role = replica");
      await m.query(
        `INSERT INTO schedule_entries (organization_id, location_id, worker_id, role_id, start_time, end_time)
         SELECT $1, sl.location_id, s.id, sr.role_id, ($2::timestamptz - make_interval(days => d)) - interval '3 hours', ($2::timestamptz - make_interval(days => d)) + interval '5 hours'
           FROM staff_members s JOIN staff_locations sl ON sl.staff_id = s.id JOIN staff_roles sr ON sr.staff_id = s.id
           CROSS JOIN generate_series(1, $3) d WHERE s.organization_id = $1 AND s.id <> $4`,
        [org, NOW, DAYS, staffId],
      );
      await m.query(
        `INSERT INTO shifts (organization_id, employee_id, location_id, role_id, start_time, end_time, paid_break_ms, unpaid_break_ms)
         SELECT organization_id, worker_id, location_id, role_id, start_time, end_time, 0, 0 FROM schedule_entries
          WHERE organization_id = $1 AND worker_id <> $2 AND extract(day FROM start_time)::int % 2 = 0`,
        [org, staffId],
      );
    });
    const [{ n: entries }] = await runtime.db.query("SELECT count(*)::int AS n FROM schedule_entries WHERE organization_id = $1", [org]);
    const timed = async () => {
      const started = process.hrtime.bigint();
      const result = await runtime.services.attendanceExceptions.detect();
      return { ms: Number(process.hrtime.bigint() - started) / 1e6, result };
    };
    const first = await timed();
    const second = await timed();
    return [
      `attendance (${databaseUrl ? "PostgreSQL" : "PGlite"}): clock-in with every clock rule on, p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms over ${PUNCHES} punches`,
      `attendance: no-show job over ${entries} scheduled entries: first run ${first.ms.toFixed(0)} ms (${first.result.noShows} no-shows written), second run ${second.ms.toFixed(0)} ms (${second.result.noShows} new)`,
    ];
  } finally {
    await runtime.close();
  }
}
