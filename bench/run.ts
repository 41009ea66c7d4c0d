import "reflect-metadata";
import { readdirSync, readFileSync } from "node:fs";
import { ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import { cpus } from "node:os";
import path from "node:path";
import { Client } from "pg";
import { PostgresQueryRunner } from "typeorm/driver/postgres/PostgresQueryRunner";
import request from "supertest";
import { loadConfig } from "../src/config";
import { Runtime, startRuntime } from "../src/app/runtime";
import { Actor } from "../src/auth/actor";
import { ALL_PERMISSIONS } from "../src/auth/permissions";
import { addDays } from "../src/common/time";
import { Weekday, weekdayNumber, workweekOf } from "../src/common/weekday";
import { ServiceProcess } from "../test/support/service-process";
import { startOptions } from "../test/support/start-options";
import { attendanceBench } from "./attendance";
import { calendarFeedsAlone } from "./calendar-feeds";
import { eligibilityAlone } from "./eligibility";
import { benchComplianceCheck } from "./compliance-check";
import { hostileDocumentsAlone, loadAverage, measureHostileDocuments } from "./hostile-documents";
import { measureFirstAnswer } from "./first-answer";
import {
  callsInARound,
  MIX_PARTS,
  MIXED_CONNECTIONS,
  mixedLoad,
  MixedLoadResult,
  MixedLoadWorld,
  MixPart,
  pacedMixedLoad,
  SwapPair,
  TimedCall,
} from "./mixed-load";
import { seedBenchOrganization } from "./seed";
import { sampleSessions, sessionLine } from "./database-sessions";
import type { ProcessHealth } from "../src/http/process-health";
import type { Percentiles, RequestTimes } from "../src/http/request-admission";
import { webhookBench } from "./webhooks";
import { rosteringBench } from "./rostering";
import { load, loadLine, median, LoadResult, percentile, ROUNDS, SECONDS } from "./load";
import { queryOn, rateLimiterOverhead, replicaReads } from "./scale";

/**
 * Benchmarks against a real PostgreSQL (DATABASE_URL): seeds 50 locations, 2,000 staff and
 * 500,000 shifts with breaks into a database of its own, then prints figures for the
 * location-week list (REST, GraphQL, and a hand-written SQL + JSON.stringify ceiling), SQL
 * statements per request, and the streamed export. First, without a server, `npm start` to its
 * first answer on the embedded database and its idle memory. Sizes can be lowered with BENCH_SHIFTS_PER_STAFF;
 * BENCH_ROUNDS, BENCH_SECONDS and BENCH_MIXED_SECONDS set how long the loads run. With
 * BENCH_REPLICA_URL (a streaming replica of DATABASE_URL's server) the location-week list and a
 * report are also measured through the replica; BENCH_REDIS_URL adds the rate limiter's cost with
 * its counters in Redis. BENCH_ONLY=scale runs only those and the rate limiter's cost per request of the location-week list;
 * BENCH_ONLY=compliance seeds the organization and runs only the compliance check (with the load
 * average beside it, as the figure depends on what else the machine runs). BENCH_ONLY=hostile runs
 * only the hostile GraphQL documents, on an in-memory database (no DATABASE_URL needed); BENCH_ONLY=rostering
 * runs the Employee Shift Scheduling Benchmark and a location-week through the API (bench/rostering.ts);
 * BENCH_ONLY=calendar the calendar feeds, and BENCH_ONLY=eligibility the eligibility of 200 staff for
 * one shift (bench/eligibility.ts), on an in-memory database too; BENCH_ONLY=start only `npm start` to its
 * first answer and the idle service's memory; BENCH_ONLY=mixed seeds and runs only the mixed workload, BENCH_ONLY=lists only the
 * location-week list against its ceiling.
 */
const SERVER_URL = process.env.DATABASE_URL;
const SHIFTS_PER_STAFF = Number(process.env.BENCH_SHIFTS_PER_STAFF ?? 250);
const MIXED_SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 60);
/**
 * How long the same mix runs on the newly started service processes before the measured passes
 * (BENCH_WARMUP_SECONDS, 0 for none). The goal is the busiest hour of a service that has run for
 * hours; a process's first seconds still compile its code and fill its caches, which the warm-up's
 * own line shows.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 30);
/** The rate of the mix's paced pass, as a share of the throughput its closed loop reached (BENCH_PACED_SHARE). */
const PACED_SHARE = Number(process.env.BENCH_PACED_SHARE ?? 0.7);
/** Or a rate of its own in calls per second (BENCH_PACED_RATE), the same from run to run: to compare code, or machines, at one throughput. */
const PACED_RATE = process.env.BENCH_PACED_RATE ? Number(process.env.BENCH_PACED_RATE) : undefined;
/** How long each part of the mix arrives alone to measure its CPU (BENCH_PART_SECONDS). */
const PART_SECONDS = Number(process.env.BENCH_PART_SECONDS ?? 10);
/** Calls per second of a part alone, over the two processes: few enough that they seldom meet. */
const PART_RATE = 8;
const FIRST_DAY = "2026-01-05";
/** A streaming replica of DATABASE_URL's server (`.ci/scale-parts` makes one): reads that may lag are measured through it. */
const REPLICA_SERVER_URL = process.env.BENCH_REPLICA_URL;
/** A Redis server: the rate limiter's cost is also measured with its counters there. */
const REDIS_URL = process.env.BENCH_REDIS_URL;

/** The rate limiter's cost per request of the location-week list, with its counters in PostgreSQL and (BENCH_REDIS_URL) in Redis. */
async function rateLimiterFigures(url: string, listPath: string, token: string): Promise<string> {
  const lines = [await rateLimiterOverhead(url, BENCH_SERVICE_ENV, listPath, token)];
  if (REDIS_URL) lines.push(await rateLimiterOverhead(url, { ...BENCH_SERVICE_ENV, REDIS_URL }, listPath, token));
  return lines.join("\n");
}
const DB_NAME = process.env.BENCH_DB ?? "wf_bench";
const ONLY = process.env.BENCH_ONLY;
// Service processes run as in production and share the signing secret the first start kept in the database.
/** Rate limits off: the loads below are one token's, far over any budget; their cost is measured on its own. */
const BENCH_SERVICE_ENV = {
  NODE_ENV: "production",
  SCHEDULED_JOBS: "off",
  LOG_LEVEL: "warn",
  JWT_SECRET: "",
  RATE_LIMIT_POINTS: "0",
  // The line's wait limit as users run it (the tests' processes run without one).
  MAX_WAIT_IN_LINE_MS: String(loadConfig({}).maxWaitInLineMs),
};

function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function recreateDatabase(): Promise<string> {
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();
  return databaseUrl(DB_NAME);
}

/** Counts the SQL statements the service sends (through TypeORM's query runners) while `work` runs. */
async function countStatements(work: () => Promise<unknown>): Promise<number> {
  const proto = PostgresQueryRunner.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let count = 0;
  proto.query = function (this: unknown, ...args: unknown[]) {
    count++;
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    proto.query = original;
  }
  return count;
}

/** The ceiling runs with the service's Node.js options, so the ratios compare code, not heap settings. */
function startCeiling(url: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...startOptions(url), path.join(__dirname, "ceiling-server.js")], {
    env: { ...process.env, DATABASE_URL: url, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve) => {
    child.stdout!.on("data", (d) => {
      const m = /listening on (http:\/\/localhost:\d+)/.exec(String(d));
      if (m) resolve({ child, url: m[1] });
    });
  });
}

/** Streams the export and counts its lines; answers rows, seconds and the peak memory of the service. */
function exportAll(service: ServiceProcess, token: string, startDate: string, endDate: string): Promise<{ rows: number; seconds: number; firstRowMs: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    let firstRowMs = -1;
    let lines = 0;
    http
      .get(
        `${service.url}/api/timesheets/export?startDate=${startDate}&endDate=${endDate}&format=csv`,
        { headers: { Authorization: `Bearer ${token}` } },
        (res) => {
          if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
          res.on("data", (chunk: Buffer) => {
            if (firstRowMs < 0) firstRowMs = Number(process.hrtime.bigint() - started) / 1e6;
            // indexOf, not a loop over every byte: the counting shares the machine with the service it measures.
            for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines++;
          });
          res.on("end", () => resolve({ rows: lines - 1, seconds: Number(process.hrtime.bigint() - started) / 1e9, firstRowMs }));
        },
      )
      .on("error", reject);
  });
}

function peakMemoryMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024);
}

/**
 * The whole seeded range exported as CSV by a service of its own, twice: the first export is the one
 * measured against the goal (a service's first after a start, its code not yet compiled for the rows
 * and its caches empty); the second shows the same service once warm. The lines to print.
 */
async function exportFigures(url: string, token: string): Promise<string> {
  const exporter = await ServiceProcess.start(url, BENCH_SERVICE_ENV);
  const lastDay = addDays(FIRST_DAY, Math.min(SHIFTS_PER_STAFF, 365) - 1);
  const measured = async () => {
    // Where the time went: the service's and the database server's CPU (the wall time moves with the machine's other work).
    const [serviceBefore, databaseBefore] = [cpuSeconds(exporter.child.pid!), databaseServerSeconds()];
    const exported = await exportAll(exporter, token, FIRST_DAY, lastDay);
    const [serviceCpu, databaseCpu] = [cpuSeconds(exporter.child.pid!) - serviceBefore, databaseServerSeconds() - databaseBefore];
    return (
      `${exported.rows} rows in ${exported.seconds.toFixed(1)} s = ${Math.round(exported.rows / exported.seconds)} rows/s (goal ≥ 150000); ` +
      `first bytes after ${Math.round(exported.firstRowMs)} ms; CPU: service ${serviceCpu.toFixed(1)} s, database ${databaseCpu.toFixed(1)} s`
    );
  };
  const first = await measured();
  const firstPeak = peakMemoryMb(exporter.child.pid!);
  const second = await measured();
  const peak = peakMemoryMb(exporter.child.pid!);
  await exporter.stop();
  return (
    `export (CSV, streamed), a new service's first: ${first}; service peak memory ${firstPeak} MB (goal < 200 MB); ${loadAverage()}\n` +
    `  the same service's second export: ${second}; service peak memory ${peak} MB; ${loadAverage()}`
  );
}

/** Managers reading in the mixed workload, each with a token (and a rate-limit budget) of their own. */
const MIXED_MANAGERS = 200;

/** Today, read once: a world built across midnight keeps its days in step. */
const BENCH_DAY = new Date().toISOString().slice(0, 10);

/**
 * A day so many days from today (UTC). The service processes run on the real clock, so what the
 * mixed load claims, swaps, plans and asks off lies ahead of today, whenever the bench runs: open
 * shifts 10–19 days ahead, swapped entries 20–29, time off from 40 on, the planned week from 90.
 */
const daysAhead = (days: number): string => addDays(BENCH_DAY, days);

/** What the mixed workload acts on: workers and managers with their tokens, a time-off policy that includes everyone, published open shifts. */
async function mixedLoadWorld(
  runtime: Runtime,
  organizationId: string,
  apiKey: string,
  locationIds: string[],
  generationLocation: string,
): Promise<MixedLoadWorld> {
  const actor: Actor = { organizationId, apiKeyId: "bench", staffId: null, permissions: new Set(ALL_PERMISSIONS) };
  const tokenOf = async (staffId: string) => (await runtime.services.access.exchangeToken({ apiKey, staffId })).accessToken;
  const staff: { id: string; locationId: string; roleId: string }[] = await runtime.db.query(
    `SELECT sl.staff_id AS id, sl.location_id AS "locationId", sr.role_id AS "roleId"
       FROM staff_locations sl JOIN staff_roles sr ON sr.staff_id = sl.staff_id
      WHERE sl.organization_id = $1 AND sl.location_id = ANY($2::uuid[])`,
    [organizationId, locationIds],
  );
  const workers = [];
  for (const worker of staff) workers.push({ ...worker, token: await tokenOf(worker.id) });
  const managers: { id: string }[] = await runtime.db.query(
    `INSERT INTO staff_members (organization_id, name, email, access_role_id)
     SELECT $1, 'Manager ' || g, 'manager' || g || '@bench.example', (SELECT id FROM access_roles WHERE organization_id = $1 AND name = 'Manager')
       FROM generate_series(1, $2::int) g RETURNING id`,
    [organizationId, MIXED_MANAGERS],
  );
  const managerTokens = [];
  for (const manager of managers) managerTokens.push(await tokenOf(manager.id));
  const types = await runtime.services.timeOffPolicies.listTypes(actor);
  const policy = await runtime.services.timeOffPolicies.create(actor, {
    name: "Vacation",
    typeId: types.find((t) => t.type === "Vacation")!.id,
    allowNegativeBalance: true,
    defaultSettings: { assignedStaff: { type: "Location", value: locationIds.join(",") } },
  });
  await runtime.services.timeOffPolicies.activate(actor, policy.id);
  const openShifts = [];
  for (const locationId of locationIds) {
    const roleId = workers.find((w) => w.locationId === locationId)!.roleId;
    for (let day = 10; day < 20; day++) {
      const shift = await runtime.services.openShifts.create(actor, locationId, {
        roleId,
        startDate: `${daysAhead(day)}T10:00:00`,
        endDate: `${daysAhead(day)}T16:00:00`,
        // Places for every worker of the location, so claims go on succeeding through every pass of the mix.
        staffCountRequired: 40,
        requireApproval: false,
      });
      openShifts.push({ locationId, id: shift.id });
    }
    await runtime.services.schedulePublishing.publish(actor, locationId, { startDate: daysAhead(10), endDate: daysAhead(19) });
  }
  // Punches go through their location's clock rules: from the machine's own network only.
  const app = request(runtime.app);
  const auth = { Authorization: `Bearer ${(await runtime.services.access.exchangeToken({ apiKey })).accessToken}` };
  for (const locationId of locationIds) {
    const rules = await app
      .put(`/api/organizations/${organizationId}/locations/${locationId}/clock-rules`)
      .set(auth)
      .send({ allowedNetworks: ["127.0.0.0/8", "::1/128"], enforcement: "BLOCK" });
    if (rules.status !== 200) throw new Error(`clock rules: ${rules.status} ${JSON.stringify(rules.body)}`);
  }
  const calendarFeeds = [];
  for (const worker of workers.slice(0, 100)) {
    const feed = await app.post(`/api/organizations/${organizationId}/staff/${worker.id}/calendar-feed`).set(auth);
    if (feed.status !== 201 && feed.status !== 200) throw new Error(`calendar feed: ${feed.status} ${JSON.stringify(feed.body)}`);
    calendarFeeds.push(new URL(feed.body.url).pathname);
  }
  // A week to plan at a location of its own: shift templates of its workers' roles and coverage of each every day.
  const planned = `/api/organizations/${organizationId}/locations/${generationLocation}`;
  const roleIds: string[] = (
    await runtime.db.query(
      "SELECT DISTINCT sr.role_id AS id FROM staff_locations sl JOIN staff_roles sr ON sr.staff_id = sl.staff_id WHERE sl.location_id = $1",
      [generationLocation],
    )
  ).map((r: { id: string }) => r.id);
  const templates: string[] = [];
  for (const [i, [startTime, endTime]] of [
    ["07:00", "15:00"],
    ["15:00", "23:00"],
  ].entries()) {
    for (const roleId of roleIds.slice(0, 3)) {
      const template = await app
        .post(`${planned}/shift-templates`)
        .set(auth)
        .send({ name: `Bench ${i} ${roleId.slice(0, 4)}`, roleId, startTime, endTime });
      if (template.status !== 201) throw new Error(`shift template: ${template.status} ${JSON.stringify(template.body)}`);
      templates.push(template.body.id);
    }
  }
  // Monday to Sunday, the Monday 90–96 days ahead.
  const monday = workweekOf(daysAhead(96), weekdayNumber(Weekday.Monday));
  const week = Array.from({ length: 7 }, (_, d) => addDays(monday, d));
  const coverage = await app
    .put(`${planned}/coverage`)
    .set(auth)
    .send({ startDate: week[0], endDate: week[6], requirements: week.flatMap((date) => templates.map((templateId) => ({ date, templateId, count: 2 }))) });
  if (coverage.status !== 200) throw new Error(`coverage: ${coverage.status} ${JSON.stringify(coverage.body)}`);
  const generation = {
    path: `${planned}/schedules/generate`,
    body: { startDate: week[0], endDate: week[6], timeLimitSeconds: Math.max(1, Math.min(60, Math.floor(MIXED_SECONDS / 2))) },
  };
  return {
    organizationId,
    locationIds,
    workers,
    managerTokens,
    policyId: policy.id,
    firstTimeOffDay: daysAhead(40),
    openShifts,
    calendarFeeds,
    generation,
    swapPairs: await swapPairs(app, auth, organizationId, workers),
  };
}

/** Pairs of workers swapped back and forth by the mixed load: more than its connections, so one rarely waits for a pair. */
const SWAP_PAIRS = 40;

/**
 * Pairs of workers of one location and role, each with a published entry on a day after the open
 * shifts and before the time off the load asks for (one 09:00–15:00, the other
 * 16:00–22:00 the same day), so a swap breaks no rule and can be swapped back.
 */
async function swapPairs(
  app: ReturnType<typeof request>,
  auth: Record<string, string>,
  organizationId: string,
  workers: MixedLoadWorld["workers"],
): Promise<SwapPair[]> {
  const groups = new Map<string, MixedLoadWorld["workers"]>();
  for (const w of workers) groups.set(`${w.locationId} ${w.roleId}`, [...(groups.get(`${w.locationId} ${w.roleId}`) ?? []), w]);
  const pairs: SwapPair[] = [];
  for (const group of groups.values()) {
    for (let i = 0; i + 1 < group.length && pairs.length < SWAP_PAIRS; i += 2) {
      const day = daysAhead(20 + (pairs.length % 10));
      const entry = async (w: MixedLoadWorld["workers"][number], from: string, to: string): Promise<string> => {
        const res = await app
          .post(`/api/organizations/${organizationId}/locations/${w.locationId}/schedules`)
          .set(auth)
          .send({ workerId: w.id, roleId: w.roleId, startTime: `${day}T${from}:00`, endTime: `${day}T${to}:00` });
        if (res.status !== 201) throw new Error(`swap entry: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body.id;
      };
      const [a, b] = [group[i], group[i + 1]];
      pairs.push({ entries: [await entry(a, "09:00", "15:00"), await entry(b, "16:00", "22:00")], owners: [a, b] });
    }
  }
  if (pairs.length < SWAP_PAIRS) throw new Error(`only ${pairs.length} pairs of workers sharing a location and role for swaps`);
  return pairs;
}

/** Service processes of the mixed workload: with the default rate limits on, as users run it. */
// Scheduled jobs on: background work (a schedule generation) runs in them.
const MIXED_SERVICE_ENV = {
  ...BENCH_SERVICE_ENV,
  SCHEDULED_JOBS: "on",
  RATE_LIMIT_POINTS: String(loadConfig({}).rateLimitPoints),
  RATE_LIMIT_WINDOW_SECONDS: String(loadConfig({}).rateLimitWindowSeconds),
};

/** What a mixed load printed: each process's figures, the background generation's outcome, where the time went, and what each part costs. */
interface MixedLoadRun {
  /** The warm-up on the newly started processes, when there was one. */
  cold: MixedLoadResult[] | null;
  mixed: MixedLoadResult[];
  /** The same mix at a fixed rate, a share of the most the closed loop reached. */
  paced: { rate: number; results: MixedLoadResult[] };
  generation: string;
  sessions: string;
  cpu: string;
  parts: PartCost[];
}

/** The CPU time of the machine and of the load's parts so far, to measure a pass by. */
interface CpuMark {
  services: number[];
  client: NodeJS.CpuUsage;
  database: number;
  machine: ReturnType<typeof machineTicks>;
  at: number;
}

function cpuMark(processes: ServiceProcess[]): CpuMark {
  return {
    services: processes.map((p) => cpuSeconds(p.child.pid!)),
    client: process.cpuUsage(),
    database: databaseServerSeconds(),
    machine: machineTicks(),
    at: Date.now(),
  };
}

/** CPU seconds since `mark`: the service processes', the load's client's, the database server's, and the whole machine's busy time. */
function cpuSince(mark: CpuMark, processes: ServiceProcess[]) {
  const client = process.cpuUsage(mark.client);
  const machine = machineTicks();
  return {
    seconds: (Date.now() - mark.at) / 1000,
    services: processes.reduce((sum, p, i) => sum + cpuSeconds(p.child.pid!) - mark.services[i], 0),
    client: (client.user + client.system) / 1e6,
    database: databaseServerSeconds() - mark.database,
    // Clock ticks of 1/100 s.
    busy: (machine.busy - mark.machine.busy) / 100,
    lowPriority: (machine.lowPriority - mark.machine.lowPriority) / 100,
    all: (machine.all - mark.machine.all) / 100,
  };
}

/** Where a process's calls spent their time (from its /healthz): before their turn, in line, at work. */
function spans(times: RequestTimes): string {
  const span = (name: string, t: Percentiles) => `${name} p50 ${t.p50} / p99 ${t.p99} ms`;
  return [
    span("before their turn (body, authentication, rate limits)", times.beforeTurnMs),
    span("in line", times.inLineMs),
    span("at work", times.atWorkMs),
  ].join(", ");
}

/** The mixed workload against two service processes at once. */
async function runMixedLoad(url: string, world: MixedLoadWorld): Promise<MixedLoadRun> {
  const processes = [await ServiceProcess.start(url, MIXED_SERVICE_ENV), await ServiceProcess.start(url, MIXED_SERVICE_ENV)];
  try {
    const cold = WARMUP_SECONDS > 0 ? await Promise.all(processes.map((p) => mixedLoad(p.url, world, WARMUP_SECONDS))) : null;
    // The planner's statistics brought up to date, as autovacuum keeps them on a server where it
    // runs: a server set up for tests may run without it, and the tables the world and the warm-up
    // filled (published entries, shift requests) would be planned as empty, each swap then reading
    // every entry of the organization to move two.
    await queryOn(url, "ANALYZE");
    const sessions = await sampleSessions(SERVER_URL!, DB_NAME);
    const before = cpuMark(processes);
    // A manager starts a schedule generation, which runs in a service process while the load goes on.
    const headers = { Authorization: `Bearer ${world.managerTokens[0]}`, "Content-Type": "application/json" };
    const queued = await fetch(`${processes[0].url}${world.generation.path}`, { method: "POST", headers, body: JSON.stringify(world.generation.body) });
    const { id } = await queued.json();
    const mixed = await Promise.all(processes.map((p) => mixedLoad(p.url, world, MIXED_SECONDS)));
    const used = cpuSince(before, processes);
    const share = (seconds: number) => `${Math.round((100 * seconds) / Math.max(0.01, used.all))}%`;
    const cpu =
      `CPU during the load: the two service processes ${(used.services / used.seconds).toFixed(2)} cores, ` +
      `the load's own client ${(used.client / used.seconds).toFixed(2)} cores, ` +
      `the database server's processes on this machine ${(used.database / used.seconds).toFixed(2)} cores (of ${cpus().length}); ` +
      `the machine busy ${share(used.busy)} of the time, ${share(used.lowPriority)} at low priority (the generation's search)`;
    const states = sessionLine(await sessions.stop());
    const kept = await Promise.all(processes.map(async (p) => (await (await fetch(`${p.url}/healthz`)).json()).process as ProcessHealth));
    const loops = kept
      .map(
        (h, i) =>
          `process ${i + 1} event loop delay p50 ${h.eventLoopDelayMs.p50} ms, p99 ${h.eventLoopDelayMs.p99} ms, garbage collection ${h.garbageCollectionPercent}%, ` +
          `its calls ${spans(h.requestTimes)}`,
      )
      .join("; ");
    const read = async () => (await fetch(`${processes[0].url}/api/organizations/${world.organizationId}/schedule-generations/${id}`, { headers })).json();
    let status = await read();
    for (let waited = 0; ["QUEUED", "RUNNING"].includes(status.status) && waited < 120; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      status = await read();
    }
    const rate = PACED_RATE ?? Math.round(PACED_SHARE * mixed.reduce((sum, m) => sum + m.rps, 0));
    const paced = await Promise.all(processes.map((p) => pacedMixedLoad(p.url, world, MIXED_SECONDS, rate / processes.length)));
    return {
      cold,
      mixed,
      paced: { rate, results: paced },
      sessions: `${states}; ${loops} of the time since start`,
      cpu,
      generation: `schedule generation in the background: ${queued.status} then ${status.status}, ${status.result?.draftIds?.length ?? 0} drafts`,
      parts: await partCosts(processes, world),
    };
  } finally {
    for (const p of processes) await p.stop();
  }
}

/** What one part of the mix costs, arriving alone and slowly: CPU milliseconds and SQL statements per call, and how fast it is answered. */
interface PartCost {
  part: MixPart;
  /** How many calls of a round of the mix are this part's. */
  inARound: number;
  calls: number;
  /** Each process's median latency, ms. */
  p50: number[];
  service: number;
  database: number;
  /** SQL statements per call, from the processes' /healthz. */
  statements: number;
}

/**
 * Each part of the mix alone at PART_RATE calls per second, with the CPU each call costs the
 * service processes and the database server: what the closed loop spends its cores on. What they
 * spend idle (timers, jobs, autovacuum after the earlier passes) is taken off: watched for 3 s
 * before and 3 s after each part, at the lower of the two rates. One window alone let a burst
 * in it (a collection of the earlier part's garbage, a vacuum) count against the part, which came
 * out negative.
 */
async function partCosts(processes: ServiceProcess[], world: MixedLoadWorld): Promise<PartCost[]> {
  /** The SQL statements the service processes have sent so far. */
  const statementsSent = async () => {
    const health = await Promise.all(processes.map(async (p) => (await (await fetch(`${p.url}/healthz`)).json()).process as ProcessHealth));
    return health.reduce((sum, h) => sum + h.sqlStatements, 0);
  };
  /** The service processes' and the database server's CPU seconds and the statements sent while `work` runs, and for how many seconds. */
  const watch = async (work: () => Promise<unknown>) => {
    const sent = await statementsSent();
    const mark = cpuMark(processes);
    const database = watchDatabaseServer();
    await work();
    const { seconds, services } = cpuSince(mark, processes);
    return { seconds, service: services, database: database.stop(), statements: (await statementsSent()) - sent };
  };
  const idleFor3s = () => watch(() => new Promise((resolve) => setTimeout(resolve, 3000)));
  const costs: PartCost[] = [];
  let before = await idleFor3s();
  for (const part of MIX_PARTS) {
    let results: MixedLoadResult[] = [];
    const used = await watch(async () => {
      results = await Promise.all(processes.map((p) => pacedMixedLoad(p.url, world, PART_SECONDS, PART_RATE / processes.length, part)));
    });
    const after = await idleFor3s();
    const calls = Math.max(
      1,
      results.reduce((n, r) => n + r.requests, 0),
    );
    const perCall = (of: "service" | "database" | "statements") => {
      const idleRate = Math.min(before[of] / before.seconds, after[of] / after.seconds);
      return (used[of] - idleRate * used.seconds) / calls;
    };
    costs.push({
      part,
      inARound: callsInARound(world, part),
      calls,
      p50: results.map((r) => r.p50),
      service: 1000 * perCall("service"),
      database: 1000 * perCall("database"),
      statements: perCall("statements"),
    });
    before = after;
  }
  return costs;
}

/** A process's CPU time so far (user and system), in seconds, from /proc: Linux only, 0 elsewhere. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks of 1/100 s
  } catch {
    return 0;
  }
}

/** CPU seconds so far of each of this machine's processes named postgres (a local database server), by process id. */
function databaseServerProcesses(): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      if (readFileSync(`/proc/${entry}/stat`, "utf8").includes(" (postgres) ")) seconds.set(Number(entry), cpuSeconds(Number(entry)));
    } catch {
      // The process ended meanwhile.
    }
  }
  return seconds;
}

/** CPU seconds so far of this machine's database server (sessions that ended are not counted). */
function databaseServerSeconds(): number {
  return [...databaseServerProcesses().values()].reduce((sum, s) => sum + s, 0);
}

/**
 * The database server's CPU seconds from now until `stop`, sessions that end meanwhile included (up to
 * their last sample, every 200 ms): a pool closes its idle connections, and their time would be lost.
 */
function watchDatabaseServer(): { stop: () => number } {
  const first = databaseServerProcesses();
  const last = new Map(first);
  const sample = () => {
    for (const [pid, seconds] of databaseServerProcesses()) {
      if (!first.has(pid)) first.set(pid, 0);
      last.set(pid, seconds);
    }
  };
  const timer = setInterval(sample, 200);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return [...last].reduce((sum, [pid, seconds]) => sum + seconds - first.get(pid)!, 0);
    },
  };
}

/** The machine's CPU time so far from /proc/stat, in clock ticks: all, busy (not idle or waiting on disk), and at low priority (nice). */
function machineTicks(): { all: number; busy: number; lowPriority: number } {
  try {
    const [user, nice, system, idle, iowait, ...rest] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const all = user + nice + system + idle + iowait + rest.reduce((sum, t) => sum + t, 0);
    return { all, busy: all - idle - iowait, lowPriority: nice };
  } catch {
    return { all: 0, busy: 0, lowPriority: 0 };
  }
}

function mixedLoadLines({ cold, mixed, paced, generation, sessions, cpu, parts }: MixedLoadRun): string {
  const lines = [];
  if (cold) {
    lines.push(`the mix below first ran ${WARMUP_SECONDS} s on the newly started processes, to warm them (BENCH_WARMUP_SECONDS):`);
    lines.push(...processLines(cold, { goal: false }));
  }
  lines.push(
    `mixed workload, ${MIXED_SECONDS} s, two service processes × ${MIXED_CONNECTIONS} connections, each process working on ` +
      `${loadConfig(process.env).concurrentRequests || "all its"} calls at once (CONCURRENT_REQUESTS), default rate limits on (timesheet and schedule reads and ` +
      `open shifts' eligible staff by ${MIXED_MANAGERS} managers, ` +
      `clock-ins and -outs under clock rules, time-off requests, open-shift claims, calendar feeds and swaps asked, accepted and approved by a manager, ` +
      `each with their own token; a schedule generation running meanwhile); ${loadAverage()}:`,
  );
  lines.push(...processLines(mixed));
  lines.push(`  ${refusedLine(mixed)}; ${generation}`);
  lines.push(`  where the time goes: ${cpu}; ${sessions}`);
  lines.push(...timedCallLines(mixed));
  lines.push(
    `then the same mix paced: calls arriving at random at ${paced.rate} req/s in all ` +
      `(${PACED_RATE ? "BENCH_PACED_RATE" : `${Math.round(PACED_SHARE * 100)} % of the above`}), ` +
      `each latency from when the call was due, ${MIXED_SECONDS} s:`,
  );
  lines.push(...processLines(paced.results));
  lines.push(`  ${refusedLine(paced.results)}`);
  lines.push(...timedCallLines(paced.results));
  lines.push(...partCostLines(parts));
  return lines.join("\n");
}

/**
 * What each part of the mix costs, and what that bounds: the mix's average call needs its CPU, so
 * the machine's cores answer at most so many calls a second, and the closed loop's calls in flight
 * then wait at least so long on average (Little's law), whatever the code does with its time.
 */
function partCostLines(parts: PartCost[]): string[] {
  const ms = (v: number) => v.toFixed(1);
  const cost = (p: PartCost) => p.service + p.database;
  const round = parts.reduce((sum, p) => sum + p.inARound, 0);
  const average = parts.reduce((sum, p) => sum + p.inARound * cost(p), 0) / round;
  const capacity = (1000 * cpus().length) / average;
  const inFlight = 2 * MIXED_CONNECTIONS;
  return [
    `then each part of the mix alone, at ${PART_RATE} calls a second for ${PART_SECONDS} s: CPU per call (ms) of the service processes and of the ` +
      `database server, its share of the mix's CPU (calls of a round of ${round}), and the SQL statements a call sends:`,
    ...parts.map(
      (p) =>
        `  ${p.part}: ${p.calls} calls, p50 ${p.p50.join(" / ")} ms; service ${ms(p.service)} + database ${ms(p.database)} = ${ms(cost(p))} ms; ` +
        `${Math.round((100 * p.inARound * cost(p)) / (average * round))}% of the mix (${p.inARound} of ${round} calls); ${p.statements.toFixed(1)} statements`,
    ),
    `  the mix's average call: ${ms(average)} ms of CPU (the kernel's and the load's own not counted), so ${cpus().length} cores answer at most ` +
      `${Math.round(capacity)} calls a second; at that rate the closed loop's ${inFlight} calls in flight take ${Math.round((1000 * inFlight) / capacity)} ms ` +
      `each on average (goal p99 < 300 ms)`,
  ];
}

/** Each service process's share of a pass: how many calls were answered, how fast, and with what. */
function processLines(results: MixedLoadResult[], { goal = true } = {}): string[] {
  return results.map(
    (m, i) =>
      `  process ${i + 1}: ${m.requests} requests, ${m.rps} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${goal ? " (goal < 300 ms)" : ""}, answers ${JSON.stringify(m.byStatus)}`,
  );
}

/** How many answers of the processes had a status starting with `prefix` ("5" for 5xx). */
function answersWith(results: MixedLoadResult[], prefix: string): number {
  return results.reduce(
    (n, m) =>
      n +
      Object.entries(m.byStatus)
        .filter(([code]) => code.startsWith(prefix))
        .reduce((k, [, c]) => k + c, 0),
    0,
  );
}

/**
 * The 5xx and 429 answers of a pass: none of either is the goal, as the mix is one organization's
 * busiest hour within the default limits; refusals answer fast, so a pass that hit a limit measured
 * them rather than the work.
 */
function refusedLine(results: MixedLoadResult[]): string {
  return `5xx answers: ${answersWith(results, "5")} (goal 0); 429 answers: ${answersWith(results, "429")} (goal 0)`;
}

/** The latencies of the new features' calls, over the processes. */
function timedCallLines(results: MixedLoadResult[]): string[] {
  return (Object.keys(results[0].calls) as TimedCall[]).map((name) => {
    const times = results.flatMap((m) => m.calls[name].ms);
    const succeeded = results.reduce((n, m) => n + m.calls[name].succeeded, 0);
    return times.length
      ? `  ${name}: ${times.length} calls (${succeeded} 2xx), p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms (goal < 300 ms)`
      : `  ${name}: no calls`;
  });
}

/** BENCH_ONLY=webhooks: what events cost a write and how fast webhooks go out. */
async function webhooksAlone(): Promise<string[]> {
  if (!SERVER_URL) throw new Error("BENCH_ONLY=webhooks needs DATABASE_URL (a PostgreSQL server; a database wf_bench_events is created on it)");
  return [`${await webhookBench(SERVER_URL)}; ${loadAverage()}`];
}

/** Parts that run alone without the seeded database: `BENCH_ONLY=hostile`, `webhooks`, `rostering`, `calendar`, `attendance`, `eligibility`, `start`. */
const ALONE: Record<string, () => Promise<string[]>> = {
  hostile: hostileDocumentsAlone,
  webhooks: webhooksAlone,
  rostering: rosteringBench,
  calendar: calendarFeedsAlone,
  attendance: () => attendanceBench(SERVER_URL),
  eligibility: eligibilityAlone,
  start: async () => [await measureFirstAnswer()],
};

/**
 * The location-week list through REST and GraphQL against the hand-written ceiling, in the same run:
 * rounds alternate the three, each round starting with the next, so that a slow spell of a shared machine does not fall on one of them.
 */
async function listFigures(
  service: ServiceProcess,
  url: string,
  list: { ceilingQuery: string; restPath: string; gqlBody: string; token: string; weekSize: number },
): Promise<string[]> {
  const ceiling = await startCeiling(url);
  const auth = { Authorization: `Bearer ${list.token}` };
  const runs: Record<"rest" | "graphql" | "ceiling", LoadResult[]> = { rest: [], graphql: [], ceiling: [] };
  const loads: Record<keyof typeof runs, () => Promise<LoadResult>> = {
    ceiling: () => load(ceiling.child.pid!, { url: `${ceiling.url}/?${list.ceilingQuery}` }),
    rest: () => load(service.child.pid!, { url: `${service.url}${list.restPath}`, headers: auth }),
    graphql: () =>
      load(service.child.pid!, {
        url: `${service.url}/graphql`,
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: list.gqlBody,
      }),
  };
  const order = Object.keys(loads) as (keyof typeof runs)[];
  try {
    // Each round starts one further along, so a machine slowing down (or warming up) through the run does not always fall on the same one.
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < order.length; i++) {
        const which = order[(round + i) % order.length];
        runs[which].push(await loads[which]());
      }
    }
  } finally {
    ceiling.child.kill("SIGTERM");
  }
  const [rest, graphql, ceilingResult] = [median(runs.rest), median(runs.graphql), median(runs.ceiling)];
  const versus = (r: LoadResult, target: string) =>
    `${(r.rps / ceilingResult.rps).toFixed(2)}× ceiling (goal ≥ ${target}; by CPU per request ${(ceilingResult.cpuMsPerRequest / r.cpuMsPerRequest).toFixed(2)}×)`;
  return [
    `\nlocation-week list (${list.weekSize} shifts with breaks), median of ${ROUNDS} rounds of ${SECONDS} s, 10 connections; all rounds (req/s): ` +
      `ceiling ${runs.ceiling.map((r) => r.rps).join(" ")}, REST ${runs.rest.map((r) => r.rps).join(" ")}, GraphQL ${runs.graphql.map((r) => r.rps).join(" ")}`,
    loadLine("hand-written SQL + JSON.stringify", ceilingResult),
    `${loadLine("REST GET /api/timesheets", rest)}   ${versus(rest, "1.0")}`,
    `${loadLine("GraphQL timesheets", graphql)}   ${versus(graphql, "1.0")}`,
  ];
}

async function main(): Promise<void> {
  if (ONLY && ALONE[ONLY]) {
    console.log((await ALONE[ONLY]()).join("\n"));
    return;
  }
  if (ONLY !== undefined && !["compliance", "export", "scale", "mixed", "lists"].includes(ONLY)) {
    throw new Error(
      `BENCH_ONLY=${ONLY}: only ${["compliance", "export", "scale", "mixed", ...Object.keys(ALONE)].map((p) => `"${p}"`).join(", ")} can run alone`,
    );
  }
  if (!SERVER_URL) throw new Error("npm run bench needs DATABASE_URL (a PostgreSQL server; a database wf_bench is created on it)");
  if (!ONLY) console.log(await measureFirstAnswer());
  const url = await recreateDatabase();
  // The bulk load runs statements far longer than a request may.
  const runtime = await startRuntime({ ...loadConfig(), databaseUrl: url, logLevel: "warn", statementTimeoutMs: 600_000, scheduledJobs: false });
  const { organization, apiKey } = await runtime.services.organizations.createTrusted({ name: "Bench Co", timezone: "America/New_York" });
  const seeded = process.hrtime.bigint();
  const bench = await seedBenchOrganization(runtime.db, organization.id, { locations: 50, staff: 2000, shiftsPerStaff: SHIFTS_PER_STAFF, firstDay: FIRST_DAY });
  const [{ count: shiftCount }] = await runtime.db.query("SELECT count(*)::int AS count FROM shifts");
  console.log(`seeded 50 locations, 2000 staff, ${shiftCount} shifts with 2 breaks each in ${(Number(process.hrtime.bigint() - seeded) / 1e9).toFixed(1)} s`);

  // The compliance check leaves a strict profile and rule-breaking drafts at its location: the last
  // one, which the mixed load (the first five) never publishes.
  const complianceLocation = bench.locationIds[bench.locationIds.length - 1];
  if (ONLY === "compliance" || ONLY === "export") {
    console.log(`\n${await benchComplianceCheck(runtime, organization.id, complianceLocation)}; ${loadAverage()}`);
    // The export then runs with the pay rules of that location's profile on, as in the whole run.
    const exportToken = ONLY === "export" && (await runtime.services.access.exchangeToken({ apiKey })).accessToken;
    await runtime.close();
    if (exportToken) console.log(`\n${await exportFigures(url, exportToken)}`);
    return;
  }
  const { accessToken: token } = await runtime.services.access.exchangeToken({ apiKey });
  const location = bench.locationIds[0];
  const week = { startDate: "2026-03-02", endDate: "2026-03-08" };
  const restPath = `/api/timesheets?startDate=${week.startDate}&endDate=${week.endDate}&locationId=${location}`;
  const gqlQuery = `query Week($loc: ID!, $from: String!, $to: String!) { timesheets(startDate: $from, endDate: $to, locationId: $loc) {
    shifts { id employeeId locationId roleId startTime endTime breaks { startTime endTime typeId paid name mandatory frequencyMinutes durationInSettingsMinutes }
             hourlyWage totalPaidBreaks totalUnpaidBreaks duration payableDuration utcOffset utcStartTime utcEndTime locked active createdAt updatedAt deletedAt }
    lockedDays totals { duration totalPaidBreaks totalUnpaidBreaks } } }`;
  const gqlBody = JSON.stringify({ query: gqlQuery, variables: { loc: location, from: week.startDate, to: week.endDate } });
  const nested = `query N($loc: ID!, $from: String!, $to: String!) { timesheets(startDate: $from, endDate: $to, locationId: $loc) { shifts { id employee { name } role { name } location { name } notes { text } } } }`;

  // SQL statements per request, in-process.
  const app = request(runtime.app);
  const auth = { Authorization: `Bearer ${token}` };
  const employee = (await runtime.db.query("SELECT staff_id FROM staff_locations WHERE location_id = $1 LIMIT 1", [location]))[0].staff_id;
  const tenShifts = `/api/timesheets?startDate=2026-03-02&endDate=2026-03-11&employeeId=${employee}`;
  const thousandShifts = `/api/timesheets?startDate=2026-03-02&endDate=2026-03-26&locationId=${location}`;
  const statements = {
    rest10: await countStatements(() => app.get(tenShifts).set(auth)),
    rest1000: await countStatements(() => app.get(thousandShifts).set(auth)),
    gqlNested10: await countStatements(() =>
      app
        .post("/graphql")
        .set(auth)
        .send({ query: nested, variables: { loc: location, from: "2026-03-02", to: "2026-03-02" } }),
    ),
    gqlNested1000: await countStatements(() =>
      app
        .post("/graphql")
        .set(auth)
        .send({ query: nested, variables: { loc: location, from: "2026-03-02", to: "2026-03-26" } }),
    ),
  };
  const weekSize = (await app.get(restPath).set(auth)).body.shifts.length;
  const mayLag = {
    [`location-week list (${weekSize} shifts)`]: { path: restPath, connections: 10 },
    // The report reads the whole organization's week (overtime counts every location), then keeps one location.
    "employee report, one location-week": {
      path: `/api/timesheets/reports/employees?startDate=${week.startDate}&endDate=${week.endDate}&locationId=${location}`,
      connections: 1,
      amount: 5,
    },
  };
  if (ONLY === "scale") {
    await runtime.close();
    if (REPLICA_SERVER_URL) console.log(`\n${await replicaReads(url, REPLICA_SERVER_URL, BENCH_SERVICE_ENV, token, mayLag)}`);
    else console.log("\nreads through a replica: not measured (set BENCH_REPLICA_URL to a streaming replica of DATABASE_URL's server)");
    console.log(`\n${await rateLimiterFigures(url, restPath, token)}`);
    return;
  }
  const listed = {
    ceilingQuery: `organizationId=${organization.id}&locationId=${location}&startDate=${week.startDate}&endDate=${week.endDate}`,
    restPath,
    gqlBody,
    token,
    weekSize,
  };
  if (ONLY === "lists") {
    await runtime.close();
    const service = await ServiceProcess.start(url, BENCH_SERVICE_ENV);
    try {
      console.log((await listFigures(service, url, listed)).join("\n"));
    } finally {
      await service.stop();
    }
    return;
  }
  if (ONLY !== "mixed") console.log(`\n${await benchComplianceCheck(runtime, organization.id, complianceLocation)}`);
  const world = await mixedLoadWorld(runtime, organization.id, apiKey, bench.locationIds.slice(0, 5), bench.locationIds[5]);
  await runtime.close();
  if (ONLY === "mixed") {
    console.log(`\n${mixedLoadLines(await runMixedLoad(url, world))}`);
    return;
  }

  const service = await ServiceProcess.start(url, BENCH_SERVICE_ENV);
  let lists: string[];
  let documents: string[];
  let documentsLoad: string;
  try {
    lists = await listFigures(service, url, listed);
    documents = await measureHostileDocuments(service, token);
    documentsLoad = loadAverage();
  } finally {
    await service.stop();
  }
  const exported = await exportFigures(url, token);

  const limiter = await rateLimiterFigures(url, restPath, token);
  const throughReplica = REPLICA_SERVER_URL
    ? await replicaReads(url, REPLICA_SERVER_URL, BENCH_SERVICE_ENV, token, mayLag)
    : "reads through a replica: not measured (BENCH_REPLICA_URL not set)";

  const mixed = await runMixedLoad(url, world);

  for (const listLine of lists) console.log(listLine);
  console.log(
    `\nSQL statements per request: REST list of 10 shifts ${statements.rest10}, of 1000 shifts ${statements.rest1000}; ` +
      `GraphQL nested (employee, role, location, notes) of 40 shifts ${statements.gqlNested10}, of 1000 shifts ${statements.gqlNested1000}`,
  );
  console.log(`\n${exported}`);
  console.log(`\n${limiter}`);
  console.log(`\n${throughReplica}`);
  console.log(`\n${mixedLoadLines(mixed)}`);
  console.log(`\n${await webhookBench(SERVER_URL)}`);
  console.log(`\nGraphQL documents up to the 1 MiB body limit (status, server CPU per request; ${documentsLoad} at the end):`);
  for (const documentLine of documents) console.log(documentLine);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
