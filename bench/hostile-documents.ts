import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { Worker } from "node:worker_threads";
import { getIntrospectionQuery } from "graphql";
import { PLATFORM_KEY } from "../test/support/harness";
import { ServiceProcess } from "../test/support/service-process";
import { percentile } from "./load";

/** Documents an attacker can send within the 1 MiB body limit, and one large document a client really sends. */
function documents(): Record<string, string> {
  const fragments = (n: number) => Array.from({ length: n }, (_, i) => `fragment F${i} on Organization { name }`).join(" ");
  const spreads = (n: number) => Array.from({ length: n }, (_, i) => `...F${i}`).join(" ");
  const doubling = Array.from(
    { length: 40 },
    (_, i) => `fragment T${i} on __Type { name ${i ? `ofType { ...T${i - 1} } fields { type { ...T${i - 1} } }` : ""} }`,
  ).join(" ");
  const aliases = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: name`).join(" ");
  const deep = (n: number) => `${"{ organization ".repeat(n)}${"}".repeat(n)}`;
  const docs: Record<string, string> = {
    "one field 5,000 times": `{ organization { ${"name ".repeat(5_000)} } }`,
    "one field 10,000 times": `{ organization { ${"name ".repeat(10_000)} } }`,
    "one field 50,000 times": `{ organization { ${"name ".repeat(50_000)} } }`,
    "one field 200,000 times (1 MiB)": `{ organization { ${"name ".repeat(200_000)} } }`,
    "4,000 of the same field (under the token limit)": `{ organization { ${"name ".repeat(4_000)} } }`,
    "nesting 100,000 deep": deep(100_000),
    "nesting 1,000 deep": deep(1_000),
    "20,000 aliases": `{ organization { ${aliases(20_000)} } }`,
    "1,000 aliases": `{ organization { ${aliases(1_000)} } }`,
    "10,000 fragments spread in one place": `{ organization { ${spreads(10_000)} } } ${fragments(10_000)}`,
    "600 fragments spread in one place": `{ organization { ${spreads(600)} } } ${fragments(600)}`,
    "fragments doubling 40 times": `{ __schema { types { ...T39 } } } ${doubling}`,
    // Without a token, a text naming neither public operation is refused unread: these name one.
    "public mutation, one field 200,000 times (1 MiB)": `mutation { exchangeToken(input: { apiKey: "x" }) { ${"accessToken ".repeat(200_000)} } }`,
    "public mutation, one field 4,000 times": `mutation { exchangeToken(input: { apiKey: "x" }) { ${"accessToken ".repeat(4_000)} } }`,
    "public mutation, nesting 1,000 deep": `mutation { exchangeToken(input: { apiKey: "x" }) ${"{ accessToken ".repeat(1_000)}${"}".repeat(1_000)} }`,
    "GraphiQL's introspection query (answered)": getIntrospectionQuery(),
  };
  for (const [name, text] of Object.entries(docs)) {
    const size = Buffer.byteLength(JSON.stringify({ query: text }));
    if (size > 1024 * 1024) docs[name] = text.slice(0, 1024 * 1024 - 100);
  }
  return docs;
}

/** Connections that send one body again and again until told to stop, then tell how many they sent. */
const ATTACKERS = `
const { parentPort, workerData } = require("node:worker_threads");
let running = true;
parentPort.once("message", () => (running = false));
const connection = async () => {
  let sent = 0;
  while (running) {
    await (await fetch(workerData.url, { method: "POST", headers: { "Content-Type": "application/json" }, body: workerData.body })).arrayBuffer();
    sent++;
  }
  return sent;
};
Promise.all(Array.from({ length: workerData.connections }, connection)).then((counts) => parentPort.postMessage(counts.reduce((a, b) => a + b, 0)));
`;

/** Connections that each send 2 MiB WebSocket frames before signing in, opening a new socket when the service closes one. */
const FRAME_SENDERS = `
const { parentPort, workerData } = require("node:worker_threads");
const WebSocket = require(workerData.ws);
let running = true;
parentPort.once("message", () => (running = false));
const frame = Buffer.alloc(2 * 1024 * 1024, 0x20);
const connection = async () => {
  let sent = 0;
  while (running) {
    await new Promise((resolve) => {
      const socket = new WebSocket(workerData.url, "graphql-transport-ws");
      socket.on("open", () => { socket.send(frame); sent++; });
      socket.on("error", () => undefined);
      socket.on("close", resolve);
    });
  }
  return sent;
};
Promise.all(Array.from({ length: workerData.connections }, connection)).then((counts) => parentPort.postMessage(counts.reduce((a, b) => a + b, 0)));
`;

/** The service's resident memory, in MiB. */
function rssMiB(pid: number): number {
  const kib = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Math.round(Number(kib) / 1024);
}

/** Linux counts process CPU time in ticks of 1/100 s (USER_HZ). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function post(url: string, body: string, token: string | null): Promise<number> {
  const res = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/**
 * For each document: the status, and the server's CPU time per request (the mean of `repeats`
 * requests, since the kernel counts CPU time in 10 ms ticks), with a token and without. Then
 * /healthz's latency while ten connections send the costliest of them without pause.
 */
export async function measureHostileDocuments(service: ServiceProcess, token: string, repeats = 20): Promise<string[]> {
  const lines: string[] = [];
  const pid = service.child.pid!;
  const perDocument: { name: string; who: "token" | "anonymous"; cpu: number; refused: boolean }[] = [];
  const bodies = Object.fromEntries(Object.entries(documents()).map(([name, query]) => [name, JSON.stringify({ query })]));
  for (const [name, body] of Object.entries(bodies)) {
    const cells: string[] = [];
    for (const who of [token, null]) {
      const before = cpuMs(pid);
      let status = 0;
      for (let i = 0; i < repeats; i++) status = await post(service.url, body, who);
      const cpu = (cpuMs(pid) - before) / repeats;
      perDocument.push({ name, who: who ? "token" : "anonymous", cpu, refused: status >= 400 });
      cells.push(`${who ? "token" : "anonymous"} ${status} ${cpu.toFixed(1).padStart(5)} ms CPU`);
    }
    lines.push(`  ${name.padEnd(50)} ${(Buffer.byteLength(body) / 1024).toFixed(0).padStart(5)} KiB   ${cells.join("   ")}`);
  }
  const costliest = (who: "token" | "anonymous") => perDocument.filter((d) => d.refused && d.who === who).reduce((a, b) => (b.cpu > a.cpu ? b : a));
  for (const who of ["token", "anonymous"] as const) {
    const most = costliest(who);
    lines.push(`  most CPU for a refused document (${who}): ${most.cpu.toFixed(1)} ms (${most.name}); target < 50 ms`);
  }
  const answered = perDocument.filter((d) => !d.refused);
  if (answered.length) lines.push(`  most CPU for an answered document: ${Math.max(...answered.map((d) => d.cpu)).toFixed(1)} ms; target < 50 ms`);
  // The attack below has no token: the costliest document an anonymous caller can send.
  const worst = costliest("anonymous");

  // /healthz alone first: on a shared machine its latency is not all the service's doing.
  const quiet = await healthz(service.url, 2);
  const body = bodies[worst.name];
  // The ten connections run in a thread of their own, so that sending them does not delay /healthz's own timing here.
  const attackers = new Worker(ATTACKERS, { eval: true, workerData: { url: `${service.url}/graphql`, body, connections: 10 } });
  const latencies = await healthz(service.url, 5);
  const sent = await new Promise<number>((resolve) => {
    attackers.once("message", resolve);
    attackers.postMessage("stop");
  });
  await attackers.terminate();
  lines.push(`  /healthz alone: ${figures(quiet)}`);
  lines.push(`  /healthz while 10 connections send "${worst.name}" without a token (${sent} sent in 5 s): ${figures(latencies)}; target < 50 ms`);

  // WebSocket frames over the 1 MiB limit, before any sign-in: each closes its socket (1009) unread.
  const rssBefore = rssMiB(pid);
  const senders = new Worker(FRAME_SENDERS, {
    eval: true,
    workerData: { url: `${service.url.replace(/^http/, "ws")}/graphql`, ws: require.resolve("ws"), connections: 8 },
  });
  const duringFrames = await healthz(service.url, 5);
  const rssDuring = rssMiB(pid);
  const frames = await new Promise<number>((resolve) => {
    senders.once("message", resolve);
    senders.postMessage("stop");
  });
  await senders.terminate();
  lines.push(
    `  /healthz while 8 connections send 2 MiB WebSocket frames before signing in (${frames} frames in 5 s, service RSS ${rssBefore} → ${rssDuring} MiB): ${figures(duringFrames)}; target p99 < 50 ms`,
  );
  return lines;
}

/** /healthz's latencies over `seconds`, one request after another. */
async function healthz(url: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const started = process.hrtime.bigint();
    await (await fetch(`${url}/healthz`)).arrayBuffer();
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return latencies;
}

const figures = (l: number[]) =>
  `${l.length} answers, p50 ${percentile(l, 50).toFixed(1)} ms, p99 ${percentile(l, 99).toFixed(1)} ms, max ${Math.max(...l).toFixed(1)} ms`;

/** The machine's load while the figures were taken: they are CPU times on a shared machine. */
export const loadAverage = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} on ${cpus().length} cores`;

/**
 * This part alone (`BENCH_ONLY=hostile npm run bench`, or `node dist/bench/hostile-documents.js`):
 * a service on an in-memory database of its own, or on DATABASE_URL when it is set.
 */
export async function hostileDocumentsAlone(): Promise<string[]> {
  const service = await ServiceProcess.start(process.env.DATABASE_URL || undefined, { LOG_LEVEL: "warn", RATE_LIMIT_POINTS: "0" });
  try {
    const platform = { Authorization: `Bearer ${PLATFORM_KEY}`, "Content-Type": "application/json" };
    const created = await (
      await fetch(`${service.url}/api/organizations`, { method: "POST", headers: platform, body: JSON.stringify({ name: "Bench documents", timezone: "UTC" }) })
    ).json();
    const exchanged = await (
      await fetch(`${service.url}/api/auth/token-exchange`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ apiKey: created.apiKey }),
      })
    ).json();
    const before = loadAverage();
    const lines = await measureHostileDocuments(service, exchanged.accessToken);
    return [`GraphQL documents up to the 1 MiB body limit (status, server CPU per request); before: ${before}, after: ${loadAverage()}`, ...lines];
  } finally {
    await service.stop();
  }
}

if (require.main === module) {
  hostileDocumentsAlone()
    .then((lines) => console.log(lines.join("\n")))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
