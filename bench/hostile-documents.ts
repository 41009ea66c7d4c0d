import { readFileSync } from "node:fs";
import { getIntrospectionQuery } from "graphql";
import { PLATFORM_KEY } from "../test/support/harness";
import { ServiceProcess } from "../test/support/service-process";

/** Documents an attacker can send within the 1 MiB body limit, and one large document a client really sends. */
function documents(): Record<string, string> {
  const fragments = (n: number) => Array.from({ length: n }, (_, i) => `fragment F${i} on Organization { name }`).join(" ");
  const spreads = (n: number) => Array.from({ length: n }, (_, i) => `...F${i}`).join(" ");
  const doubling = Array.from({ length: 40 }, (_, i) => `fragment T${i} on __Type { name ${i ? `ofType { ...T${i - 1} } fields { type { ...T${i - 1} } }` : ""} }`).join(" ");
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
    "GraphiQL's introspection query (answered)": getIntrospectionQuery(),
  };
  for (const [name, text] of Object.entries(docs)) {
    const size = Buffer.byteLength(JSON.stringify({ query: text }));
    if (size > 1024 * 1024) docs[name] = text.slice(0, 1024 * 1024 - 100);
  }
  return docs;
}

/** Linux counts process CPU time in ticks of 1/100 s (USER_HZ). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function post(url: string, query: string, token: string | null): Promise<number> {
  const res = await fetch(`${url}/graphql`, { method: "POST", headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ query }) });
  await res.arrayBuffer();
  return res.status;
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

/**
 * For each document: the status, and the server's CPU time per request (the mean of `repeats`
 * requests, since the kernel counts CPU time in 10 ms ticks), with a token and without. Then
 * /healthz's latency while ten connections send the costliest of them without pause.
 */
export async function measureHostileDocuments(service: ServiceProcess, token: string, repeats = 20): Promise<string[]> {
  const lines: string[] = [];
  const pid = service.child.pid!;
  const perDocument: { name: string; cpu: number; refused: boolean }[] = [];
  for (const [name, query] of Object.entries(documents())) {
    const cells: string[] = [];
    for (const who of [token, null]) {
      const before = cpuMs(pid);
      let status = 0;
      for (let i = 0; i < repeats; i++) status = await post(service.url, query, who);
      const cpu = (cpuMs(pid) - before) / repeats;
      perDocument.push({ name, cpu, refused: status >= 400 });
      cells.push(`${who ? "token" : "anonymous"} ${status} ${cpu.toFixed(1).padStart(5)} ms CPU`);
    }
    lines.push(`  ${name.padEnd(50)} ${(Buffer.byteLength(query) / 1024).toFixed(0).padStart(5)} KiB   ${cells.join("   ")}`);
  }
  const worst = perDocument.filter((d) => d.refused).reduce((a, b) => (b.cpu > a.cpu ? b : a));
  lines.push(`  most CPU for a refused document: ${worst.cpu.toFixed(1)} ms (${worst.name}); target < 50 ms`);

  const query = documents()[worst.name];
  let running = true;
  const attackers = Array.from({ length: 10 }, async () => {
    let sent = 0;
    while (running) {
      await post(service.url, query, null);
      sent++;
    }
    return sent;
  });
  const latencies: number[] = [];
  const until = Date.now() + 5_000;
  while (Date.now() < until) {
    const started = process.hrtime.bigint();
    await (await fetch(`${service.url}/healthz`)).arrayBuffer();
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  running = false;
  const sent = (await Promise.all(attackers)).reduce((a, b) => a + b, 0);
  lines.push(
    `  /healthz while 10 connections send "${worst.name}" without a token (${sent} sent in 5 s): ` +
      `${latencies.length} answers, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms; target < 50 ms`,
  );
  return lines;
}

/** Run alone (`node dist/bench/hostile-documents.js`): a service on an in-memory database of its own. */
async function main(): Promise<void> {
  const service = await ServiceProcess.start(process.env.DATABASE_URL || undefined, { LOG_LEVEL: "warn" });
  try {
    const platform = { Authorization: `Bearer ${PLATFORM_KEY}`, "Content-Type": "application/json" };
    const created = await (await fetch(`${service.url}/api/organizations`, { method: "POST", headers: platform, body: JSON.stringify({ name: "Bench documents", timezone: "UTC" }) })).json();
    const exchanged = await (await fetch(`${service.url}/api/auth/token-exchange`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ apiKey: created.apiKey }) })).json();
    console.log("GraphQL documents up to the 1 MiB body limit (status, server CPU per request):");
    for (const line of await measureHostileDocuments(service, exchanged.accessToken)) console.log(line);
  } finally {
    await service.stop();
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
