import http from "node:http";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { addDays } from "../src/common/time";
import { percentile } from "./load";

export interface MixedLoadWorld {
  organizationId: string;
  locationIds: string[];
  /** Each worker acts with a token of their own, and so spends a rate-limit budget of their own. */
  workers: { id: string; locationId: string; roleId: string; token: string }[];
  /** The managers' tokens, which the reads take turns with. */
  managerTokens: string[];
  policyId: string;
  /** The time off the load asks for lies in the year from this day. */
  firstTimeOffDay: string;
  openShifts: { locationId: string; id: string }[];
  /** Paths of workers' calendar feeds (the secret in the path is the feed's credential). */
  calendarFeeds: string[];
  /** A location the load leaves alone, whose week a schedule generation plans in the background meanwhile. */
  generation: { path: string; body: object };
  /**
   * Pairs of workers with a published entry each, which the load swaps back and forth (a worker
   * asks, the other accepts, a manager approves). Shared by every connection: one takes a pair for
   * a round and gives it back, so no two swaps of one entry run at once.
   */
  swapPairs: SwapPair[];
}

export interface SwapPair {
  /** `entries[i]` is `owners[i]`'s entry; an approved swap turns them round. */
  entries: [string, string];
  owners: [{ id: string; token: string }, { id: string; token: string }];
  /** A request left live by a refused step, cancelled before the pair's next swap. */
  stale?: string;
}

/** Calls each service process of the closed loop has in flight at once. */
export const MIXED_CONNECTIONS = 10;

/** The parts of the mix, each one call but the swap, whose three steps go together. */
export const MIX_PARTS = [
  "location-week of timesheets",
  "location-week of schedules",
  "punch under clock rules",
  "time-off request",
  "open-shift claim",
  "open shift eligibility",
  "calendar feed",
  "swap asked, accepted and approved",
] as const;
export type MixPart = (typeof MIX_PARTS)[number];

/** The calls of the new features whose own latencies are printed beside the whole mix's. */
export type TimedCall = "open shift eligibility" | "swap approval" | "punch under clock rules" | "calendar feed";

export interface MixedLoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  byStatus: Record<string, number>;
  /** Each timed call's latencies (ms), from sending it to its answer, and how many answered 2xx. */
  calls: Record<TimedCall, { ms: number[]; succeeded: number }>;
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
  const { requests, calls } = mixOf(world);
  const result = await autocannon({ url, connections: MIXED_CONNECTIONS, duration: seconds, headers: { "Content-Type": "application/json" }, requests });
  const byStatus: Record<string, number> = {};
  for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) byStatus[code] = (count as { count: number }).count;
  return { requests: result.requests.total, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, byStatus, calls };
}

/**
 * The calls of the mix, in the order each connection sends them (only those of `part` when given),
 * and the latencies of the timed ones as they are answered.
 */
function mixOf(world: MixedLoadWorld, part?: MixPart): { requests: autocannon.Request[]; calls: MixedLoadResult["calls"] } {
  const as = (token: string) => ({ Authorization: `Bearer ${token}`, "Content-Type": "application/json" });
  const manager = () => as(pick(world.managerTokens));
  const base = `/api/organizations/${world.organizationId}`;
  const clockedIn = new Set<string>();
  const weekOf = () => {
    const day = 1 + Math.floor(Math.random() * 20);
    const start = `2026-06-${String(day).padStart(2, "0")}`;
    return { start, end: `2026-06-${String(day + 6).padStart(2, "0")}` };
  };
  const calls = Object.fromEntries(
    (["open shift eligibility", "swap approval", "punch under clock rules", "calendar feed"] as const).map((name) => [
      name,
      { ms: [] as number[], succeeded: 0 },
    ]),
  ) as MixedLoadResult["calls"];
  type Context = { started?: number; pair?: SwapPair; requestId?: string };
  /** A request of the mix whose latency is recorded under `name` (with pipelining 1, it is built just before it is sent). */
  const timed = (
    name: TimedCall,
    method: autocannon.Request["method"],
    setup: (req: autocannon.Request, context: Context) => autocannon.Request,
    answered?: (status: number, context: Context) => void,
  ): autocannon.Request => ({
    method,
    setupRequest: (req, context: Context) => {
      context.started = performance.now();
      return setup(req, context);
    },
    onResponse: (status, _body, context: Context) => {
      calls[name].ms.push(performance.now() - context.started!);
      if (status < 300) calls[name].succeeded++;
      answered?.(status, context);
    },
  });
  /** Ends a pair's round: back to the pool, remembering a request a refusal left live. */
  const release = (context: Context, status: number, ok: number) => {
    if (!context.pair) return;
    if (status !== ok && context.requestId) context.pair.stale = context.requestId;
    world.swapPairs.push(context.pair);
    context.pair = undefined;
    context.requestId = undefined;
  };
  const mix: [MixPart, autocannon.Request][] = [
    [
      "location-week of timesheets",
      {
        method: "GET",
        setupRequest: (req) => {
          const w = weekOf();
          return { ...req, headers: manager(), path: `/api/timesheets?startDate=${w.start}&endDate=${w.end}&locationId=${pick(world.locationIds)}` };
        },
      },
    ],
    [
      "location-week of schedules",
      {
        method: "GET",
        setupRequest: (req) => {
          const w = weekOf();
          return { ...req, headers: manager(), path: `${base}/locations/${pick(world.locationIds)}/schedules?startDate=${w.start}&endDate=${w.end}` };
        },
      },
    ],
    [
      "punch under clock rules",
      timed("punch under clock rules", "POST", (req) => {
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
      }),
    ],
    [
      "location-week of timesheets",
      {
        method: "GET",
        setupRequest: (req) => {
          const w = weekOf();
          return { ...req, headers: manager(), path: `/api/timesheets?startDate=${w.start}&endDate=${w.end}&locationId=${pick(world.locationIds)}` };
        },
      },
    ],
    [
      "time-off request",
      {
        method: "POST",
        setupRequest: (req) => {
          const day = addDays(world.firstTimeOffDay, Math.floor(Math.random() * 365));
          const worker = pick(world.workers);
          const body = { workerId: worker.id, policyId: world.policyId, startTime: `${day}T09:00:00`, endTime: `${day}T17:00:00` };
          return { ...req, headers: as(worker.token), path: `${base}/time-off-requests`, body: JSON.stringify(body) };
        },
      },
    ],
    [
      "open-shift claim",
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
    ],
    [
      "open shift eligibility",
      timed("open shift eligibility", "GET", (req) => {
        const shift = pick(world.openShifts);
        return { ...req, headers: manager(), path: `${base}/locations/${shift.locationId}/open-shifts/${shift.id}/eligible-staff` };
      }),
    ],
    // A calendar program sends no token: the feed's secret is in its path.
    ["calendar feed", timed("calendar feed", "GET", (req) => ({ ...req, headers: {}, path: pick(world.calendarFeeds) }))],
    // A swap: one worker asks (or a request a refusal left live is cancelled first), the other accepts, a manager approves.
    // A step without its request answers nothing, which starts the connection's round again.
    [
      "swap asked, accepted and approved",
      {
        method: "POST",
        setupRequest: (req, context: Context) => {
          const pair = world.swapPairs.shift();
          if (!pair) return undefined as unknown as autocannon.Request;
          context.pair = pair;
          if (pair.stale) return { ...req, headers: manager(), path: `${base}/shift-requests/${pair.stale}/cancel` };
          const body = { type: "SWAP", entryId: pair.entries[0], recipientEntryId: pair.entries[1] };
          return { ...req, headers: as(pair.owners[0].token), path: `${base}/shift-requests`, body: JSON.stringify(body) };
        },
        onResponse: (status, body, context: Context) => {
          if (context.pair?.stale) {
            context.pair.stale = undefined;
            return release(context, status, status);
          }
          if (status === 201) context.requestId = JSON.parse(body).id;
          else release(context, status, 201);
        },
      },
    ],
    [
      "swap asked, accepted and approved",
      {
        method: "POST",
        setupRequest: (req, context: Context) =>
          context.requestId
            ? { ...req, headers: as(context.pair!.owners[1].token), path: `${base}/shift-requests/${context.requestId}/accept` }
            : (undefined as unknown as autocannon.Request),
        onResponse: (status, _body, context: Context) => {
          if (status !== 200) release(context, status, 200);
        },
      },
    ],
    [
      "swap asked, accepted and approved",
      timed(
        "swap approval",
        "POST",
        (req, context) =>
          context.requestId
            ? { ...req, headers: manager(), path: `${base}/shift-requests/${context.requestId}/approve`, body: "{}" }
            : (undefined as unknown as autocannon.Request),
        (status, context) => {
          if (status === 200) context.pair!.entries.reverse();
          release(context, status, 200);
        },
      ),
    ],
  ];
  return { calls, requests: mix.filter(([name]) => part === undefined || name === part).map(([, request]) => request) };
}

/** How many of a round's calls are `part`'s (a location-week of timesheets is read twice, a swap takes three steps). */
export function callsInARound(world: MixedLoadWorld, part: MixPart): number {
  return mixOf(world, part).requests.length;
}

/**
 * The same mix at a fixed rate instead of as fast as 10 connections go: calls arrive at random
 * (Poisson) at `perSecond` whether or not earlier ones were answered, each on a sequence of its own
 * (taken from those that are idle, or a new one), and each latency counts from when the call was due.
 * This is the latency users see at that throughput; the closed loop measures the most the service does.
 * With `part`, only that part of the mix arrives.
 */
export async function pacedMixedLoad(url: string, world: MixedLoadWorld, seconds: number, perSecond: number, part?: MixPart): Promise<MixedLoadResult> {
  const { requests, calls } = mixOf(world, part);
  // Idle sockets close before the service's keep-alive timeout (5 s) would, so no call is sent on one it is closing.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512, timeout: 4000 });
  const idle: { index: number; context: object }[] = [];
  const latencies: number[] = [];
  const byStatus: Record<string, number> = {};
  /** The calls sent and not yet answered. */
  const unanswered = new Set<Promise<void>>();
  /** Builds a sequence's next call as autocannon does: a call that builds nothing starts the sequence again. */
  const build = (lane: { index: number; context: object }) => {
    const call = requests[lane.index];
    const plain = { method: call.method, path: call.path ?? "/", headers: { "Content-Type": "application/json" }, body: call.body };
    const setup = call.setupRequest as ((req: autocannon.Request, context: object) => autocannon.Request | undefined) | undefined;
    const built = setup ? setup(plain as autocannon.Request, lane.context) : plain;
    if (built || lane.index === 0) return { call, built: built ?? plain };
    lane.index = 0;
    lane.context = {};
    return build(lane);
  };
  const send = (due: number) => {
    const lane = idle.pop() ?? { index: 0, context: {} };
    const { call, built } = build(lane);
    const answer = new Promise<void>((resolve) => {
      const req = http.request(new URL(built.path ?? "/", url), { method: built.method, headers: built.headers as http.OutgoingHttpHeaders, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          latencies.push(performance.now() - due);
          byStatus[status] = (byStatus[status] ?? 0) + 1;
          const onAnswer = call.onResponse as ((status: number, body: string, context: object) => void) | undefined;
          onAnswer?.(status, Buffer.concat(chunks).toString(), lane.context);
          lane.index = (lane.index + 1) % requests.length;
          if (lane.index === 0) lane.context = {};
          idle.push(lane);
          resolve();
        });
      });
      req.on("error", () => {
        byStatus.error = (byStatus.error ?? 0) + 1;
        resolve();
      });
      req.end(built.body);
    });
    unanswered.add(answer);
    void answer.then(() => unanswered.delete(answer));
  };
  const start = performance.now();
  const end = start + seconds * 1000;
  let due = start;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      for (; due <= now && due < end; due += (-Math.log(1 - Math.random()) * 1000) / perSecond) send(due);
      if (due < end) setTimeout(tick, Math.max(0, due - performance.now()));
      else resolve();
    };
    tick();
  });
  await Promise.all(unanswered);
  agent.destroy();
  const at = (p: number) => Math.round(percentile(latencies, p) ?? 0);
  return { requests: latencies.length, rps: Math.round(latencies.length / ((performance.now() - start) / 1000)), p50: at(50), p99: at(99), byStatus, calls };
}
