import http from "node:http";
import { AsyncLocalStorage } from "node:async_hooks";
import net, { AddressInfo } from "node:net";
import express from "express";
import { Client } from "pg";
import { ARRIVED_AT, requestAdmission, RequestsInProcess } from "../../src/http/request-admission";
import { TestOrganization, TestService } from "../support/harness";
import { until } from "../support/until";

const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

function listen(handler: http.RequestListener): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer(handler);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, port: (server.address() as AddressInfo).port })));
}

/** A GET whose answer is read whole; `answered` records the order answers came in. */
function get(port: number, path: string, answered: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent: false }, (res) => {
        res.resume();
        res.on("end", () => {
          answered.push(path);
          resolve(res.statusCode!);
        });
      })
      .on("error", reject);
  });
}

/**
 * A server whose `GET /hold/{name}` waits behind `admission` (and `before`, when given) and is
 * answered when the test calls `answer.get(name)`; `started` lists the requests let in, in order.
 */
async function holdingServer(admission: ReturnType<typeof requestAdmission>, before?: express.RequestHandler) {
  const started: string[] = [];
  const answer = new Map<string, () => void>();
  const app = express();
  if (before) app.use(before);
  app.use(admission.admit);
  app.get("/hold/:name", (req, res) => {
    started.push(req.params.name);
    answer.set(req.params.name, () => res.send(req.params.name));
  });
  return { started, answer, ...(await listen(app)) };
}

describe("requests in line", () => {
  const admission = requestAdmission(2);
  /** Requests whose handlers started, and how to answer each. */
  const started: string[] = [];
  const answer = new Map<string, () => void>();
  /** Which call the work runs for, as a request's actor is kept (AsyncLocalStorage). */
  const caller = new AsyncLocalStorage<string>();
  const ranAs: [string, string | undefined][] = [];
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    const app = express();
    app.use((req, _res, next) => caller.run(req.path, next));
    app.use(admission.admit);
    app.get("/hold/:name", (req, res) => {
      ranAs.push([req.path, caller.getStore()]);
      started.push(req.params.name);
      answer.set(req.params.name, () => res.send(req.params.name));
    });
    // 16 MB: more than the sockets' buffers take, so the answer is not all sent until the client reads.
    app.get("/big", (_req, res) => {
      res.send("x".repeat(16 * 1024 * 1024));
      started.push("big");
    });
    app.get("/download", (_req, res) => {
      admission.leave(res);
      res.write("first rows");
      answer.set("download", () => res.end());
    });
    ({ server, port } = await listen(app));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const idle = () => until(() => admission.inProcess().running === 0 && admission.inProcess().waiting === 0);

  it("works on `limit` requests at once and lets the others in as places free, in the order they came", async () => {
    const answered: string[] = [];
    const calls = [get(port, "/hold/a", answered), get(port, "/hold/b", answered)];
    await until(() => started.length === 2);
    calls.push(get(port, "/hold/c", answered));
    await until(() => admission.inProcess().waiting === 1);
    calls.push(get(port, "/hold/d", answered));
    await until(() => admission.inProcess().waiting === 2);
    expect(admission.inProcess()).toEqual({ running: 2, waiting: 2, turnedAway: 0 });
    expect(started.sort()).toEqual(["a", "b"]);

    answer.get("b")!();
    await until(() => started.length === 3);
    expect(started[2]).toBe("c");
    answer.get("a")!();
    await until(() => started.length === 4);
    expect(started[3]).toBe("d");
    answer.get("c")!();
    answer.get("d")!();
    expect(await Promise.all(calls)).toEqual([200, 200, 200, 200]);
    expect(answered.slice(0, 2)).toEqual(["/hold/b", "/hold/a"]);
    // Let in when another call ended, each ran in its own call's context.
    expect(ranAs).toHaveLength(4);
    expect(ranAs.filter(([path, store]) => path !== store)).toEqual([]);
    await idle();
    started.length = 0;
  });

  it("passes over a client that left while in line", async () => {
    const answered: string[] = [];
    const calls = [get(port, "/hold/e", answered), get(port, "/hold/f", answered)];
    await until(() => started.length === 2);
    const leaving = http.get({ host: "127.0.0.1", port, path: "/hold/gone", agent: false });
    leaving.on("error", () => undefined);
    await until(() => admission.inProcess().waiting === 1);
    leaving.destroy();
    await until(() => admission.inProcess().waiting === 0);
    calls.push(get(port, "/hold/g", answered));
    await until(() => admission.inProcess().waiting === 1);
    answer.get("e")!();
    await until(() => started.length === 3);
    expect(started).toEqual(["e", "f", "g"]);
    answer.get("f")!();
    answer.get("g")!();
    expect(await Promise.all(calls)).toEqual([200, 200, 200]);
    await idle();
    started.length = 0;
  });

  it("holds no place for a client that does not read its answer, nor for a download", async () => {
    const unread = net.connect(port, "127.0.0.1");
    unread.write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
    unread.pause();
    await until(() => started.includes("big"));
    const downloaded = new Promise((resolve) =>
      http.get({ host: "127.0.0.1", port, path: "/download", agent: false }, (res) => res.resume().on("end", resolve)),
    );
    await until(() => answer.has("download"));
    // Both are still being sent, and neither keeps a place: two others go at once.
    expect(admission.inProcess()).toEqual({ running: 0, waiting: 0, turnedAway: 0 });
    started.length = 0;
    const answered: string[] = [];
    const calls = [get(port, "/hold/h", answered), get(port, "/hold/i", answered)];
    await until(() => started.length === 2);
    answer.get("h")!();
    answer.get("i")!();
    expect(await Promise.all(calls)).toEqual([200, 200]);
    unread.destroy();
    answer.get("download")!();
    await downloaded;
    await idle();
  });
});

describe("where requests spent their time", () => {
  /** What the service does before the line (authentication, rate limits), made to take this long. */
  const BEFORE_MS = 40;
  const HELD_MS = 120;
  const admission = requestAdmission(1);
  let held: Awaited<ReturnType<typeof holdingServer>>;
  beforeAll(async () => {
    held = await holdingServer(admission, (_req, res, next) => {
      res.locals[ARRIVED_AT] = performance.now();
      setTimeout(next, BEFORE_MS);
    });
  });
  afterAll(() => new Promise((resolve) => held.server.close(resolve)));
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("tells the time before each request's turn, in line and at work, each none until a request came", async () => {
    expect(admission.times()).toEqual({
      beforeTurnMs: { p50: 0, p99: 0, max: 0 },
      inLineMs: { p50: 0, p99: 0, max: 0 },
      atWorkMs: { p50: 0, p99: 0, max: 0 },
    });
    const answered: string[] = [];
    const first = get(held.port, "/hold/first", answered);
    await until(() => held.started.length === 1);
    const second = get(held.port, "/hold/second", answered);
    await until(() => admission.inProcess().waiting === 1);
    // The first works, and the second waits for it, at least this long.
    await pause(HELD_MS + 10);
    held.answer.get("first")!();
    await until(() => held.started.length === 2);
    held.answer.get("second")!();
    expect(await Promise.all([first, second])).toEqual([200, 200]);
    await until(() => admission.inProcess().running === 0);

    const { beforeTurnMs, inLineMs, atWorkMs } = admission.times();
    // Both spent the time before the line; the second alone waited in it; the first worked while it waited.
    expect(beforeTurnMs.p50).toBeGreaterThanOrEqual(BEFORE_MS - 1);
    expect(inLineMs.max).toBeGreaterThanOrEqual(HELD_MS);
    expect(inLineMs.p50).toBeLessThan(HELD_MS);
    expect(atWorkMs.max).toBeGreaterThanOrEqual(HELD_MS);
    for (const times of [beforeTurnMs, inLineMs, atWorkMs]) {
      expect(times.p50).toBeLessThanOrEqual(times.p99);
      expect(times.p99).toBeLessThanOrEqual(times.max);
    }
  });
});

describe("a line with a wait limit", () => {
  const LIMIT_MS = 1000;
  const turnedAway: string[] = [];
  const admission = requestAdmission(1, {
    ms: LIMIT_MS,
    turnAway: (req, res) => {
      turnedAway.push(req.path);
      res.status(503).send("busy");
    },
  });
  let held: Awaited<ReturnType<typeof holdingServer>>;
  beforeAll(async () => {
    held = await holdingServer(admission);
  });
  afterAll(() => new Promise((resolve) => held.server.close(resolve)));

  it("turns away a request still waiting after the limit, never to start it; one let in before keeps its place however long it works", async () => {
    const answered: string[] = [];
    const first = get(held.port, "/hold/first", answered);
    await until(() => held.started.length === 1);
    const waitedFrom = Date.now();
    expect(await get(held.port, "/hold/second", answered)).toBe(503);
    expect(Date.now() - waitedFrom).toBeGreaterThanOrEqual(LIMIT_MS - 10);
    expect(turnedAway).toEqual(["/hold/second"]);
    expect(admission.inProcess()).toEqual({ running: 1, waiting: 0, turnedAway: 1 });

    // The first has worked past the limit: a request at work is not timed. The third waits behind it
    // and, let in before its limit, works past it too.
    const third = get(held.port, "/hold/third", answered);
    await until(() => admission.inProcess().waiting === 1);
    held.answer.get("first")!();
    expect(await first).toBe(200);
    await until(() => held.started.length === 2);
    await new Promise((resolve) => setTimeout(resolve, LIMIT_MS + 100));
    held.answer.get("third")!();
    expect(await third).toBe(200);
    expect(held.started).toEqual(["first", "third"]);
    expect(turnedAway).toEqual(["/hold/second"]);
    expect(admission.inProcess()).toEqual({ running: 0, waiting: 0, turnedAway: 1 });
  });
});

/** The service's API calls take their turn (CONCURRENT_REQUESTS) once allowed; its health checks never wait. */
describe("the service's line", () => {
  let t: TestService;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await TestService.start({ env: { CONCURRENT_REQUESTS: "1" } });
    org = await t.organization();
  });
  afterAll(() => t.stop());
  const inProcess = async (): Promise<RequestsInProcess> => (await t.http.get("/healthz")).body.process.requests;

  onPostgres("lets one call in at a time, answers a refused caller at once, and tells /healthz how many wait", async () => {
    // A list of locations waits for the table, which another session holds locked: it keeps the one place.
    const locker = new Client({ connectionString: t.databaseUrl });
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE locations IN ACCESS EXCLUSIVE MODE");
    const answered: string[] = [];
    const call = (path: string) =>
      t
        .as(org.token)
        .get(path)
        .then((res) => {
          answered.push(path);
          return res.status;
        });
    const locations = call(`/api/organizations/${org.id}/locations`);
    await until(async () => (await inProcess()).running === 1);
    const roles = call(`/api/organizations/${org.id}/roles`);
    await until(async () => (await inProcess()).waiting === 1);
    const inLineSince = performance.now();
    // A token that is not valid is refused before the line.
    expect((await t.as("not.a.token").get(`/api/organizations/${org.id}/roles`)).status).toBe(401);
    expect(answered).toEqual([]);

    const waitedAtLeast = performance.now() - inLineSince;
    await locker.query("COMMIT");
    await locker.end();
    expect(await Promise.all([locations, roles])).toEqual([200, 200]);
    expect(answered).toEqual([`/api/organizations/${org.id}/locations`, `/api/organizations/${org.id}/roles`]);
    await until(async () => (await inProcess()).running === 0);
    // The list of roles waited in line while the list of locations worked: /healthz tells both times.
    const { inLineMs, atWorkMs } = (await t.http.get("/healthz")).body.process.requestTimes;
    expect(inLineMs.max).toBeGreaterThanOrEqual(Math.floor(waitedAtLeast));
    expect(atWorkMs.max).toBeGreaterThanOrEqual(Math.floor(waitedAtLeast));
  });
});

/** A call that waits in line longer than MAX_WAIT_IN_LINE_MS is answered 503 with Retry-After. */
describe("the service's line under a wait limit", () => {
  let t: TestService;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await TestService.start({ env: { CONCURRENT_REQUESTS: "1", MAX_WAIT_IN_LINE_MS: "300" } });
    org = await t.organization();
  });
  afterAll(() => t.stop());

  onPostgres("turns away a call that waited too long, in the words of every error, and counts it in /healthz", async () => {
    const locker = new Client({ connectionString: t.databaseUrl });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE locations IN ACCESS EXCLUSIVE MODE");
      // Sent now (a request is sent once it is awaited or given a `then`), it waits for the table.
      const locations = t
        .as(org.token)
        .get(`/api/organizations/${org.id}/locations`)
        .then((res) => res.status);
      await until(async () => (await t.http.get("/healthz")).body.process.requests.running === 1);
      const roles = await t.as(org.token).get(`/api/organizations/${org.id}/roles`);
      expect(roles.status).toBe(503);
      expect(roles.headers["retry-after"]).toBe("1");
      expect(roles.body.error).toEqual({
        code: "SERVICE_UNAVAILABLE",
        message: "The service is too busy: the call waited 0.3 s for its turn; retry after Retry-After seconds",
        details: [],
        requestId: expect.any(String),
      });
      expect((await t.http.get("/healthz")).body.process.requests).toEqual({ running: 1, waiting: 0, turnedAway: 1 });
      await locker.query("COMMIT");
      expect(await locations).toBe(200);
    } finally {
      await locker.end();
    }
  });
});
