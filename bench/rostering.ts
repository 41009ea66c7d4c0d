import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PLATFORM_KEY } from "../test/support/harness";
import { ServiceProcess } from "../test/support/service-process";

/**
 * The Employee Shift Scheduling Benchmark (Curtois and Qu) through the REST API: each instance is
 * loaded into a location of its own (shift types → templates with cannotBeFollowedBy, days off →
 * UNAVAILABLE, shift on/off requests → PREFER_ON/PREFER_OFF with the template, cover → coverage,
 * staff limits → limits), generated with a time limit, read back as drafts and scored by the
 * benchmark's own scorer. Then a realistic location-week. The instances are read where they are
 * kept (ROSTERING_DIR, by default ../shared/rostering beside the project), never copied.
 *
 * BENCH_ROSTERING_INSTANCES: which (default "1-12"); BENCH_ROSTERING_SECONDS: time limit per
 * instance (default 60; 600 suits 13–24); BENCH_ROSTERING_WEEK=off skips the location-week.
 */
const ROOT = path.join(__dirname, "../..");
const DIR = [process.env.ROSTERING_DIR, path.join(ROOT, "../shared/rostering"), path.join(ROOT, "../../shared/rostering")].find(
  (d) => d && existsSync(path.join(d, "score.mjs")),
)!;
const SECONDS = Number(process.env.BENCH_ROSTERING_SECONDS ?? 60);
/** Day 0 of every instance is a Monday: 1 January 2029 is one. */
const FIRST_DAY = "2029-01-01";

interface Instance {
  horizon: number;
  shifts: { id: string; length: number; cannotFollow: string[] }[];
  staff: {
    id: string;
    maxShifts: Record<string, number>;
    maxTotalMinutes: number;
    minTotalMinutes: number;
    maxConsecutiveShifts: number;
    minConsecutiveShifts: number;
    minConsecutiveDaysOff: number;
    maxWeekends: number;
  }[];
  daysOff: Record<string, number[]>;
  shiftOnRequests: { staff: string; day: number; shift: string; weight: number }[];
  shiftOffRequests: { staff: string; day: number; shift: string; weight: number }[];
  cover: { day: number; shift: string; requirement: number; weightUnder: number; weightOver: number }[];
}
type Scorer = {
  parseInstance(text: string): Instance;
  score(i: Instance, a: { staff: string; day: number; shift: string }[]): { feasible: boolean; violations: unknown[]; objective: number };
};

const dateOf = (day: number) => new Date(Date.parse(`${FIRST_DAY}T00:00:00Z`) + day * 86_400_000).toISOString().slice(0, 10);
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60) % 24).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** A caller of the service's REST API with a bearer token, failing loudly on anything but the expected status. */
class Api {
  constructor(
    readonly url: string,
    private readonly token: string,
  ) {}

  async call(method: string, route: string, body?: unknown, expected = [200, 201, 202, 204]): Promise<{ body: any; headers: Headers }> {
    const res = await fetch(`${this.url}${route}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!expected.includes(res.status)) throw new Error(`${method} ${route} → ${res.status} ${text.slice(0, 500)}`);
    return { body: text ? JSON.parse(text) : null, headers: res.headers };
  }

  /** Every page of a list. */
  async all(route: string): Promise<any[]> {
    const rows: any[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: any; headers: Headers } = await this.call(
        "GET",
        `${route}${route.includes("?") ? "&" : "?"}limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      rows.push(...page.body);
      cursor = page.headers.get("x-next-cursor");
    } while (cursor);
    return rows;
  }
}

async function organization(url: string, name: string): Promise<{ api: Api; org: string }> {
  const platform = { Authorization: `Bearer ${PLATFORM_KEY}`, "Content-Type": "application/json" };
  const created = await (
    await fetch(`${url}/api/organizations`, { method: "POST", headers: platform, body: JSON.stringify({ name, timezone: "UTC" }) })
  ).json();
  const exchanged = await (
    await fetch(`${url}/api/auth/token-exchange`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ apiKey: created.apiKey }),
    })
  ).json();
  return { api: new Api(url, exchanged.accessToken), org: `/api/organizations/${created.organization.id}` };
}

/** Runs `n` calls at a time. */
async function inParallel<T>(items: T[], n: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** Generates and waits for the end; answers the generation and the wall-clock seconds from the request to the end. */
async function generate(api: Api, locationPath: string, org: string, body: object): Promise<{ generation: any; seconds: number }> {
  const started = Date.now();
  const queued = await api.call("POST", `${locationPath}/schedules/generate`, body);
  for (;;) {
    const { body: g } = await api.call("GET", `${org}/schedule-generations/${queued.body.id}`);
    if (!["QUEUED", "RUNNING"].includes(g.status)) return { generation: g, seconds: (Date.now() - started) / 1000 };
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function benchInstance(url: string, scorer: Scorer, n: number, best: Record<string, { best: number }>): Promise<string> {
  const instance = scorer.parseInstance(readFileSync(path.join(DIR, "instances", `Instance${n}.txt`), "utf8"));
  const { api, org } = await organization(url, `Instance ${n}`);
  const loadStarted = Date.now();
  const location = (await api.call("POST", `${org}/locations`, { name: `Instance ${n}`, timezone: "UTC" })).body.id;
  const locationPath = `${org}/locations/${location}`;
  const role = (await api.call("POST", `${org}/roles`, { name: "Nurse" })).body.id;
  const templates = new Map<string, string>();
  for (const s of instance.shifts)
    templates.set(
      s.id,
      (await api.call("POST", `${locationPath}/shift-templates`, { name: s.id, roleId: role, startTime: "00:00", endTime: hhmm(s.length) })).body.id,
    );
  for (const s of instance.shifts)
    await api.call("PATCH", `${locationPath}/shift-templates/${templates.get(s.id)}`, { cannotBeFollowedBy: s.cannotFollow.map((id) => templates.get(id)) });
  const staff = new Map<string, string>();
  await inParallel(instance.staff, 4, async (p) =>
    staff.set(p.id, (await api.call("POST", `${org}/staff`, { name: `Staff ${p.id}`, roleIds: [role], locationIds: [location] })).body.id),
  );
  const rules = [
    ...Object.entries(instance.daysOff).flatMap(([s, days]) => days.map((day) => ({ s, rule: { kind: "UNAVAILABLE", date: dateOf(day) } }))),
    ...instance.shiftOnRequests.map((r) => ({
      s: r.staff,
      rule: { kind: "PREFER_ON", date: dateOf(r.day), templateId: templates.get(r.shift), weight: r.weight },
    })),
    ...instance.shiftOffRequests.map((r) => ({
      s: r.staff,
      rule: { kind: "PREFER_OFF", date: dateOf(r.day), templateId: templates.get(r.shift), weight: r.weight },
    })),
  ];
  let loaded = 0;
  await inParallel(rules, 4, async ({ s, rule }) => {
    await api.call("POST", `${org}/staff/${staff.get(s)}/availability`, rule);
    // A year of requests is tens of thousands of calls: the load shows how it goes.
    if (++loaded % 2000 === 0 || loaded === rules.length)
      console.error(`Instance${n}: ${loaded} of ${rules.length} availability rules in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s`);
  });
  // Four weeks per PUT: a year of a few dozen shift types would pass the body limit in one.
  for (let from = 0; from < instance.horizon; from += 28) {
    const to = Math.min(instance.horizon, from + 28) - 1;
    const requirements = instance.cover
      .filter((c) => c.day >= from && c.day <= to)
      .map((c) => ({ date: dateOf(c.day), templateId: templates.get(c.shift), count: c.requirement, underWeight: c.weightUnder, overWeight: c.weightOver }));
    await api.call("PUT", `${locationPath}/coverage`, { startDate: dateOf(from), endDate: dateOf(to), requirements });
  }
  const limits = instance.staff.map((p) => ({
    staffId: staff.get(p.id),
    minMinutes: p.minTotalMinutes,
    maxMinutes: p.maxTotalMinutes,
    maxShifts: Object.entries(p.maxShifts).map(([shift, max]) => ({ templateId: templates.get(shift), max })),
    maxConsecutiveShifts: p.maxConsecutiveShifts,
    minConsecutiveShifts: p.minConsecutiveShifts,
    minConsecutiveDaysOff: p.minConsecutiveDaysOff,
    maxWeekends: p.maxWeekends,
  }));
  const loadSeconds = (Date.now() - loadStarted) / 1000;
  const { generation, seconds } = await generate(api, locationPath, org, {
    startDate: dateOf(0),
    endDate: dateOf(instance.horizon - 1),
    timeLimitSeconds: SECONDS,
    limits,
    seed: n,
  });
  const shiftOf = new Map([...templates].map(([shift, id]) => [id, shift]));
  const staffOf = new Map([...staff].map(([s, id]) => [id, s]));
  const drafts = await api.all(`${locationPath}/schedules/drafts?startDate=${dateOf(0)}&endDate=${dateOf(instance.horizon - 1)}`);
  const assignments = drafts.map((d) => ({
    staff: staffOf.get(d.workerId)!,
    day: Math.round((Date.parse(d.utcStartTime) - Date.parse(`${FIRST_DAY}T00:00:00Z`)) / 86_400_000),
    shift: shiftOf.get(d.templateId)!,
  }));
  const scored = scorer.score(instance, assignments);
  const known = best[String(n)].best;
  const cells = [
    `Instance${n}`.padEnd(11),
    String(instance.staff.length).padStart(5),
    String(instance.horizon).padStart(5),
    generation.status.padEnd(9),
    // Failed: nothing was written; the count is of the breaches the search could not remove.
    (generation.status === "SUCCEEDED" ? String(scored.violations.length) : `(${generation.result?.hardViolations?.length ?? "?"})`).padStart(4),
    String(generation.status === "SUCCEEDED" ? scored.objective : "—").padStart(9),
    String(known).padStart(7),
    (generation.status === "SUCCEEDED" ? `${((scored.objective / known - 1) * 100).toFixed(1)}%` : "—").padStart(8),
    seconds.toFixed(1).padStart(7),
    loadSeconds.toFixed(1).padStart(7),
  ];
  if (generation.status !== "SUCCEEDED") cells.push(` ${generation.error ?? ""}`.slice(0, 160));
  return cells.join(" ");
}

/**
 * A realistic location-week: 40 staff, 6 templates over two roles, a compliance profile with rest
 * (Oregon: 10 h, premium) and weekly hours (40), availability and approved time off.
 */
async function locationWeek(url: string): Promise<string> {
  const { api, org } = await organization(url, "Location week");
  const location = (await api.call("POST", `${org}/locations`, { name: "Main St", timezone: "America/Los_Angeles" })).body.id;
  const locationPath = `${org}/locations/${location}`;
  await api.call("PATCH", `${locationPath}/compliance`, { preset: "US_OR", maxWeeklyHours: 40 });
  const roles = [
    (await api.call("POST", `${org}/roles`, { name: "Cook", hourlyWage: 22 })).body.id,
    (await api.call("POST", `${org}/roles`, { name: "Server", hourlyWage: 18 })).body.id,
  ];
  const shapes: [string, number, string, string][] = [
    ["Open", 0, "06:00", "14:00"],
    ["Mid", 0, "11:00", "19:00"],
    ["Close", 0, "16:00", "23:30"],
    ["Breakfast", 1, "07:00", "13:00"],
    ["Lunch", 1, "11:00", "17:00"],
    ["Dinner", 1, "17:00", "23:00"],
  ];
  const templates: string[] = [];
  for (const [name, r, startTime, endTime] of shapes)
    templates.push((await api.call("POST", `${locationPath}/shift-templates`, { name, roleId: roles[r], startTime, endTime })).body.id);
  const staff: string[] = [];
  for (let i = 0; i < 40; i++)
    staff.push((await api.call("POST", `${org}/staff`, { name: `Person ${i}`, roleIds: [roles[i % 2]], locationIds: [location] })).body.id);
  const week = Array.from({ length: 7 }, (_, d) => dateOf(d + 7 * 52));
  for (const [i, id] of staff.entries()) {
    if (i % 5 === 0) await api.call("POST", `${org}/staff/${id}/availability`, { kind: "UNAVAILABLE", weekdays: ["SAT", "SUN"] });
    if (i % 7 === 1) await api.call("POST", `${org}/staff/${id}/availability`, { kind: "PREFER_OFF", date: week[2], weight: 5 });
    if (i % 3 === 2)
      await api.call("POST", `${org}/staff/${id}/availability`, { kind: "PREFER_ON", date: week[4], templateId: templates[i % 2 ? 4 : 1], weight: 3 });
  }
  const policyType = (await api.call("GET", `${org}/policy-types`)).body.find((x: { type: string }) => x.type === "Vacation").id;
  const policy = (
    await api.call("POST", `${org}/policies`, {
      name: "Vacation",
      typeId: policyType,
      allowNegativeBalance: true,
      requiresApproval: false,
      defaultSettings: { assignedStaff: { type: "All" } },
    })
  ).body.id;
  await api.call("PATCH", `${org}/policies/${policy}/activate`);
  for (const i of [3, 8, 13, 21])
    await api.call("POST", `${org}/time-off-requests`, {
      workerId: staff[i],
      policyId: policy,
      startTime: `${week[1]}T00:00:00-08:00`,
      endTime: `${week[3]}T23:59:00-08:00`,
    });
  const counts = [3, 3, 4, 2, 4, 4];
  await api.call("PUT", `${locationPath}/coverage`, {
    startDate: week[0],
    endDate: week[6],
    requirements: week.flatMap((date) => templates.map((templateId, t) => ({ date, templateId, count: counts[t], underWeight: 100, overWeight: 5 }))),
  });
  // /healthz keeps answering while the search runs in its child process: its latencies meanwhile.
  let running = true;
  const health: number[] = [];
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${url}/healthz`);
      health.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const { generation, seconds } = await generate(api, locationPath, org, {
    startDate: week[0],
    endDate: week[6],
    timeLimitSeconds: 3,
    costWeight: 0.01,
    defaultLimits: { maxConsecutiveShifts: 5, maxMinutes: 2400 },
  });
  running = false;
  await probe;
  health.sort((a, b) => a - b);
  const p99 = health[Math.min(health.length - 1, Math.floor(health.length * 0.99))];
  const r = generation.result;
  return (
    `location-week (40 staff, 6 templates, Oregon rest + 40 h weeks, availability, time off): ${generation.status} in ${seconds.toFixed(1)} s from request to drafts (target < 5 s); ` +
    `objective ${r?.objective?.toFixed(1)} (under ${r?.coverUnder}, over ${r?.coverOver}, preferences ${r?.preferenceOn}+${r?.preferenceOff}, cost ${r?.cost?.toFixed(1)}), ${r?.draftIds?.length} drafts, hard violations ${r?.hardViolations?.length}; ` +
    `/healthz meanwhile: ${health.length} calls, p50 ${health[Math.floor(health.length / 2)]?.toFixed(1)} ms, p99 ${p99?.toFixed(1)} ms (target < 50 ms)`
  );
}

function instanceList(spec: string): number[] {
  return spec.split(",").flatMap((part) => {
    const [from, to] = part.split("-").map(Number);
    return Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i);
  });
}

export async function rosteringBench(): Promise<string[]> {
  if (!DIR) throw new Error("The benchmark's files were not found: set ROSTERING_DIR to the folder holding score.mjs and instances/");
  // The scorer is an ES module of the benchmark's own; it is imported where it lies.
  const scorer: Scorer = await (new Function("u", "return import(u)") as (u: string) => Promise<Scorer>)(pathToFileURL(path.join(DIR, "score.mjs")).href);
  const best = JSON.parse(readFileSync(path.join(DIR, "best-known.json"), "utf8"));
  const service = await ServiceProcess.start(process.env.DATABASE_URL || undefined, { LOG_LEVEL: "warn", RATE_LIMIT_POINTS: "0", SCHEDULED_JOBS: "on" });
  const lines = [
    `Employee Shift Scheduling Benchmark through the REST API, ${SECONDS} s per instance (gap: objective over best known)`,
    "instance    staff  days status    hard objective   best      gap  gen. s  load s",
  ];
  try {
    for (const n of instanceList(process.env.BENCH_ROSTERING_INSTANCES ?? "1-12")) {
      const line = await benchInstance(service.url, scorer, n, best).catch(
        (e: Error) =>
          // A network failure names its cause; a service that died meanwhile, its last words.
          `Instance${n} failed: ${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ""}` +
          (service.child.exitCode !== null || service.child.signalCode !== null ? `\nthe service ended:\n${service.output().slice(-3000)}` : ""),
      );
      console.log(line);
      lines.push(line);
    }
    if (process.env.BENCH_ROSTERING_WEEK !== "off") lines.push(await locationWeek(service.url));
  } finally {
    await service.stop();
  }
  return lines;
}

if (require.main === module) {
  rosteringBench()
    .then((lines) => console.log(`\n${lines.join("\n")}`))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
