import "reflect-metadata";
import request from "supertest";
import { embeddedOrganization } from "./embedded-organization";
import { loadAverage } from "./hostile-documents";

const WORKERS = 20;
/** Five shifts a week for each worker, over the feed's window (30 days back, a year ahead). */
const WEEKS = 57;
const READS = 20;

/** Milliseconds of `reads` sequential GETs of `path`: the median and the slowest. */
async function timeReads(app: Parameters<typeof request>[0], path: string, reads: number): Promise<{ median: number; max: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < reads; i++) {
    const started = process.hrtime.bigint();
    const answer = await request(app).get(path);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (answer.status !== 200) throw new Error(`feed answered ${answer.status}`);
    bytes = answer.text.length;
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], max: times[times.length - 1], bytes };
}

/**
 * BENCH_ONLY=calendar: what a calendar feed costs to answer, on the embedded database: a worker's
 * feed (5 shifts a week over the window) and their location's (20 workers), each read 20 times
 * (the text, its VTIMEZONE and its ETag are made afresh on each read).
 */
export async function calendarFeedsAlone(): Promise<string[]> {
  const { runtime, organizationId, call: api } = await embeddedOrganization("Bench feeds", "America/New_York");
  try {
    const locationId = (await api("post", "/locations", { name: "Main St", timezone: "America/New_York" })).body.id as string;
    const roleId = (await api("post", "/roles", { name: "Cook", hourlyWage: 20 })).body.id as string;
    const staffIds: string[] = [];
    for (let i = 0; i < WORKERS; i++) staffIds.push((await api("post", "/staff", { name: `Cook ${i}`, roleIds: [roleId], locationIds: [locationId] })).body.id);
    const now = runtime.clock.now();
    await runtime.db.query(
      `INSERT INTO schedule_entries (organization_id, location_id, worker_id, role_id, start_time, end_time, note)
       SELECT $1, $2, s, $3, d + interval '13 hours', d + interval '21 hours', 'Bring the keys; the back door, then the front'
         FROM unnest($4::uuid[]) AS s,
              generate_series(date_trunc('day', $5::timestamptz) - interval '30 days', date_trunc('day', $5::timestamptz) + interval '${WEEKS * 7 - 30} days', interval '1 day') AS d
        WHERE extract(isodow FROM d) <= 5`,
      [organizationId, locationId, roleId, staffIds, now],
    );
    const [{ n }] = await runtime.db.query("SELECT count(*)::int AS n FROM schedule_entries WHERE organization_id = $1", [organizationId]);
    const staffFeed = new URL((await api("post", `/staff/${staffIds[0]}/calendar-feed`)).body.url).pathname;
    const locationFeed = new URL((await api("post", `/locations/${locationId}/calendar-feed`)).body.url).pathname;
    const before = loadAverage();
    const staff = await timeReads(runtime.app, staffFeed, READS);
    const location = await timeReads(runtime.app, locationFeed, READS);
    const line = (name: string, r: { median: number; max: number; bytes: number }, events: number) =>
      `${name.padEnd(34)} ${String(events).padStart(5)} events ${String(Math.round(r.bytes / 1024)).padStart(6)} KiB   median ${r.median.toFixed(1).padStart(6)} ms   max ${r.max.toFixed(1).padStart(6)} ms`;
    return [
      `calendar feeds on the embedded database, ${READS} reads each; before: ${before}, after: ${loadAverage()}`,
      line("a worker's feed", staff, n / WORKERS),
      line("a location's feed (20 workers)", location, n),
    ];
  } finally {
    await runtime.close();
  }
}
