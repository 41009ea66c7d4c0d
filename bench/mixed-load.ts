import autocannon from "autocannon";

export interface MixedLoadWorld {
  organizationId: string;
  token: string;
  locationIds: string[];
  workers: { id: string; locationId: string; roleId: string }[];
  policyId: string;
  openShifts: { locationId: string; id: string }[];
}

export interface MixedLoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  byStatus: Record<string, number>;
}

const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)];

/**
 * A day at a busy organization, against one service process: managers read location-weeks of
 * timesheets and schedules, workers clock in and out, file time off and claim open shifts. Refusals
 * (a second clock-in, an overlapping request, a full open shift) are expected answers; a 5xx never is.
 */
export async function mixedLoad(url: string, world: MixedLoadWorld, seconds: number): Promise<MixedLoadResult> {
  const auth = { Authorization: `Bearer ${world.token}`, "Content-Type": "application/json" };
  const base = `/api/organizations/${world.organizationId}`;
  const clockedIn = new Set<string>();
  const byStatus: Record<string, number> = {};
  const weekOf = () => {
    const day = 1 + Math.floor(Math.random() * 20);
    const start = `2026-06-${String(day).padStart(2, "0")}`;
    return { start, end: `2026-06-${String(day + 6).padStart(2, "0")}` };
  };
  const result = await autocannon({
    url,
    connections: 10,
    duration: seconds,
    headers: auth,
    requests: [
      {
        method: "GET",
        setupRequest: (req) => {
          const w = weekOf();
          return { ...req, path: `/api/timesheets?startDate=${w.start}&endDate=${w.end}&locationId=${pick(world.locationIds)}` };
        },
      },
      {
        method: "GET",
        setupRequest: (req) => {
          const w = weekOf();
          return { ...req, path: `${base}/locations/${pick(world.locationIds)}/schedules?startDate=${w.start}&endDate=${w.end}` };
        },
      },
      {
        method: "POST",
        setupRequest: (req) => {
          const worker = pick(world.workers);
          const out = clockedIn.has(worker.id);
          if (out) clockedIn.delete(worker.id);
          else clockedIn.add(worker.id);
          return out
            ? { ...req, path: "/api/time-tracking/clock-out", body: JSON.stringify({ workerId: worker.id }) }
            : { ...req, path: "/api/time-tracking/clock-in", body: JSON.stringify({ workerId: worker.id, locationId: worker.locationId, roleId: worker.roleId }) };
        },
      },
      {
        method: "GET",
        setupRequest: (req) => {
          const w = weekOf();
          return { ...req, path: `/api/timesheets?startDate=${w.start}&endDate=${w.end}&locationId=${pick(world.locationIds)}` };
        },
      },
      {
        method: "POST",
        setupRequest: (req) => {
          const day = String(1 + Math.floor(Math.random() * 28)).padStart(2, "0");
          const month = String(1 + Math.floor(Math.random() * 12)).padStart(2, "0");
          const body = { workerId: pick(world.workers).id, policyId: world.policyId, startTime: `2027-${month}-${day}T09:00:00`, endTime: `2027-${month}-${day}T17:00:00` };
          return { ...req, path: `${base}/time-off-requests`, body: JSON.stringify(body) };
        },
      },
      {
        method: "POST",
        setupRequest: (req) => {
          const shift = pick(world.openShifts);
          return { ...req, path: `${base}/locations/${shift.locationId}/open-shifts/${shift.id}/claim`, body: JSON.stringify({ workerId: pick(world.workers.filter((w) => w.locationId === shift.locationId)).id }) };
        },
      },
    ],
  });
  for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) byStatus[code] = (count as { count: number }).count;
  return { requests: result.requests.total, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, byStatus };
}
