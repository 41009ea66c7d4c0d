import autocannon from "autocannon";

export interface MixedLoadWorld {
  organizationId: string;
  locationIds: string[];
  /** Each worker acts with a token of their own, and so spends a rate-limit budget of their own. */
  workers: { id: string; locationId: string; roleId: string; token: string }[];
  /** The managers' tokens, which the reads take turns with. */
  managerTokens: string[];
  policyId: string;
  openShifts: { locationId: string; id: string }[];
  /** Paths of workers' calendar feeds (the secret in the path is the feed's credential). */
  calendarFeeds: string[];
  /** A location the load leaves alone, whose week a schedule generation plans in the background meanwhile. */
  generation: { path: string; body: object };
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
 * timesheets and schedules and who is eligible for an open shift, workers clock in and out (under
 * their location's clock rules), file time off, claim open shifts and their calendar programs
 * fetch their feeds, each with their own token as people do (so with rate limits on, each spends
 * their own budget).
 * Refusals (a second clock-in, an overlapping request, a full open shift) are expected answers; a
 * 5xx never is.
 */
export async function mixedLoad(url: string, world: MixedLoadWorld, seconds: number): Promise<MixedLoadResult> {
  const as = (token: string) => ({ Authorization: `Bearer ${token}`, "Content-Type": "application/json" });
  const manager = () => as(pick(world.managerTokens));
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
    headers: { "Content-Type": "application/json" },
    requests: [
      {
        method: "GET",
        setupRequest: (req) => {
          const w = weekOf();
          return { ...req, headers: manager(), path: `/api/timesheets?startDate=${w.start}&endDate=${w.end}&locationId=${pick(world.locationIds)}` };
        },
      },
      {
        method: "GET",
        setupRequest: (req) => {
          const w = weekOf();
          return { ...req, headers: manager(), path: `${base}/locations/${pick(world.locationIds)}/schedules?startDate=${w.start}&endDate=${w.end}` };
        },
      },
      {
        method: "POST",
        setupRequest: (req) => {
          const worker = pick(world.workers);
          const out = clockedIn.has(worker.id);
          if (out) clockedIn.delete(worker.id);
          else clockedIn.add(worker.id);
          const headers = as(worker.token);
          return out
            ? { ...req, headers, path: "/api/time-tracking/clock-out", body: JSON.stringify({ workerId: worker.id }) }
            : {
                ...req,
                headers,
                path: "/api/time-tracking/clock-in",
                body: JSON.stringify({ workerId: worker.id, locationId: worker.locationId, roleId: worker.roleId }),
              };
        },
      },
      {
        method: "GET",
        setupRequest: (req) => {
          const w = weekOf();
          return { ...req, headers: manager(), path: `/api/timesheets?startDate=${w.start}&endDate=${w.end}&locationId=${pick(world.locationIds)}` };
        },
      },
      {
        method: "POST",
        setupRequest: (req) => {
          const day = String(1 + Math.floor(Math.random() * 28)).padStart(2, "0");
          const month = String(1 + Math.floor(Math.random() * 12)).padStart(2, "0");
          const worker = pick(world.workers);
          const body = { workerId: worker.id, policyId: world.policyId, startTime: `2027-${month}-${day}T09:00:00`, endTime: `2027-${month}-${day}T17:00:00` };
          return { ...req, headers: as(worker.token), path: `${base}/time-off-requests`, body: JSON.stringify(body) };
        },
      },
      {
        method: "POST",
        setupRequest: (req) => {
          const shift = pick(world.openShifts);
          const worker = pick(world.workers.filter((w) => w.locationId === shift.locationId));
          return {
            ...req,
            headers: as(worker.token),
            path: `${base}/locations/${shift.locationId}/open-shifts/${shift.id}/claim`,
            body: JSON.stringify({ workerId: worker.id }),
          };
        },
      },
      {
        method: "GET",
        setupRequest: (req) => {
          const shift = pick(world.openShifts);
          return { ...req, headers: manager(), path: `${base}/locations/${shift.locationId}/open-shifts/${shift.id}/eligible-staff` };
        },
      },
      {
        method: "GET",
        // A calendar program sends no token: the feed's secret is in its path.
        setupRequest: (req) => ({ ...req, headers: {}, path: pick(world.calendarFeeds) }),
      },
    ],
  });
  for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) byStatus[code] = (count as { count: number }).count;
  return { requests: result.requests.total, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, byStatus };
}
