import { embeddedOrganization } from "./embedded-organization";
import { loadAverage } from "./hostile-documents";

const STAFF = 200;
const READS = Number(process.env.BENCH_ELIGIBILITY_READS ?? 100);
const EVERY_DAY = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"];

/**
 * BENCH_ONLY=eligibility: who of 200 staff can take one shift, with reasons, through
 * `POST …/eligibility`, on the embedded database. Each person has five evening shifts a week for four weeks
 * around it (overlap, rest and weekly hours to check), every fourth unavailable mornings (so not eligible) and
 * every fifth a preference against them; the location has a Fair Workweek profile (notice window, rest, hours).
 */
export async function eligibilityAlone(): Promise<string[]> {
  const { runtime, organizationId, call } = await embeddedOrganization("Bench eligibility", "America/Los_Angeles");
  try {
    const locationId = (await call("post", "/locations", { name: "Portland", timezone: "America/Los_Angeles" })).body.id as string;
    await call("patch", `/locations/${locationId}/compliance`, { preset: "US_OR" });
    const roleId = (await call("post", "/roles", { name: "Cook", hourlyWage: 18.75 })).body.id as string;
    const staffIds: string[] = [];
    for (let i = 0; i < STAFF; i++) staffIds.push((await call("post", "/staff", { name: `Cook ${i}`, roleIds: [roleId], locationIds: [locationId] })).body.id);
    const day = new Date(runtime.clock.now().getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
    await runtime.db.query(
      `INSERT INTO schedule_entries (organization_id, location_id, worker_id, role_id, start_time, end_time)
       SELECT $1, $2, s, $3, d + interval '22 hours', d + interval '30 hours'
         FROM unnest($4::uuid[]) AS s, generate_series($5::date - 14, $5::date + 14, interval '1 day') AS d
        WHERE extract(isodow FROM d) <= 5`,
      [organizationId, locationId, roleId, staffIds, day],
    );
    for (const [i, id] of staffIds.entries()) {
      if (i % 4 === 0) await call("post", `/staff/${id}/availability`, { kind: "UNAVAILABLE", weekdays: EVERY_DAY, startTime: "05:00", endTime: "09:00" });
      if (i % 5 === 0)
        await call("post", `/staff/${id}/availability`, { kind: "PREFER_OFF", weekdays: EVERY_DAY, startTime: "06:00", endTime: "12:00", weight: 3 });
    }
    const shift = { locationId, roleId, startTime: `${day}T06:00:00`, endTime: `${day}T12:00:00` };
    const ask = async () => {
      const answer = await call("post", "/eligibility", shift);
      if (answer.status !== 200 || answer.body.length !== STAFF) throw new Error(`eligibility answered ${answer.status}`);
      return answer.body as { eligible: boolean }[];
    };
    const eligible = (await ask()).filter((p) => p.eligible).length;
    const before = loadAverage();
    const times: number[] = [];
    for (let i = 0; i < READS; i++) {
      const started = process.hrtime.bigint();
      await ask();
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)].toFixed(1);
    return [
      `eligibility of ${STAFF} staff for one shift (${eligible} eligible), POST …/eligibility on the embedded database, ${READS} sequential requests; before: ${before}, after: ${loadAverage()}`,
      `  p50 ${at(0.5)} ms   p99 ${at(0.99)} ms   max ${times[times.length - 1].toFixed(1)} ms`,
    ];
  } finally {
    await runtime.close();
  }
}
