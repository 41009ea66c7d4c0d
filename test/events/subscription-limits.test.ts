import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { TestService } from "../support/harness";
import { Subscriber } from "../support/subscriber";
import { workplace, Workplace } from "../support/workplace";

const EVENTS = "subscription { events { type } }";
const SHIFTS = "subscription ($locationId: ID) { shiftChanged(locationId: $locationId) { type } }";

/** A held graphql-ws connection: whether it was acknowledged or closed (with its code), and what its subscription got. */
function connect(url: string, token: string | null, query = EVENTS, variables: Record<string, unknown> = {}) {
  const got: { types: string[]; errors: unknown[] } = { types: [], errors: [] };
  let settle!: (outcome: number | "acknowledged") => void;
  let closedWith!: (code: number) => void;
  const outcome = new Promise<number | "acknowledged">((resolve) => (settle = resolve));
  const closed = new Promise<number>((resolve) => (closedWith = resolve));
  const client = createClient({
    url: `${url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    lazy: false,
    retryAttempts: 0,
    on: {
      connected: () => settle("acknowledged"),
      closed: (event) => {
        const code = (event as { code: number }).code;
        settle(code);
        closedWith(code);
      },
    },
    onNonLazyError: () => undefined,
  });
  client.subscribe<{ [field: string]: { type: string } }>(
    { query, variables },
    {
      next: (value) => {
        if (value.errors) got.errors.push(...value.errors);
        const field = value.data && Object.values(value.data)[0];
        if (field) got.types.push(field.type);
      },
      error: (error) => got.errors.push(error),
      complete: () => undefined,
    },
  );
  return { outcome, closed, got, close: () => client.dispose() };
}

async function listen(t: TestService): Promise<string> {
  await new Promise<void>((resolve) => t.runtime.server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(t.runtime.server.address() as { port: number }).port}`;
}

describe("WebSocket limits", () => {
  let t: TestService;
  let w: Workplace;
  let url: string;
  beforeAll(async () => {
    t = await TestService.start({ env: { WEBSOCKETS_PER_CALLER: "2", WEBSOCKETS_PER_ADDRESS: "4" } });
    w = await workplace(t);
    url = await listen(t);
  });
  afterAll(() => t.stop());

  it("refuses a 2 MiB frame before authentication (1009), as an HTTP body of that size is", async () => {
    const socket = new WebSocket(`${url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    const code = new Promise<number>((resolve) => socket.once("close", (c) => resolve(c)));
    socket.send(Buffer.alloc(2 * 1024 * 1024, 0x20));
    expect(await code).toBe(1009);
  });

  it("holds a caller and an address to their number of connections", async () => {
    const worker = await t.staffWithToken(w.org, "Worker");
    const first = connect(url, w.org.token);
    const second = connect(url, w.org.token);
    expect(await first.outcome).toBe("acknowledged");
    expect(await second.outcome).toBe("acknowledged");
    const third = connect(url, w.org.token);
    expect(await third.outcome).toBe(4429);
    const anotherCaller = connect(url, worker.token);
    expect(await anotherCaller.outcome).toBe("acknowledged");
    // Four sockets from this address are open (the refused one closed); a fifth, even anonymous, is refused.
    const fourth = connect(url, null);
    const fifth = connect(url, null);
    expect([await fourth.outcome, await fifth.outcome]).toContain(4429);
    for (const c of [first, second, third, anotherCaller, fourth, fifth]) await c.close();
  });

  it("runs at most 50 subscriptions on one socket", async () => {
    const client = createClient({
      url: `${url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${w.org.token}` },
      retryAttempts: 0,
    });
    const errors: unknown[] = [];
    const stops = Array.from({ length: 51 }, () =>
      client.subscribe({ query: EVENTS }, { next: () => undefined, error: (e) => errors.push(e), complete: () => undefined }),
    );
    while (!errors.length) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain("TOO_MANY_SUBSCRIPTIONS");
    for (const stop of stops) stop();
    await client.dispose();
  });

  it("answers a malformed id or another organization's locationId with an error", async () => {
    const other = await workplace(t);
    for (const locationId of ["nope", other.locationId]) {
      const s = await Subscriber.start(url, w.org.token, SHIFTS, { locationId });
      await s.until((x) => x.errors.length > 0);
      expect(JSON.stringify(s.errors)).toContain("NOT_FOUND");
      await s.close();
    }
  });
});

describe("subscriptions end with their right to exist", () => {
  let t: TestService;
  let w: Workplace;
  let url: string;
  beforeAll(async () => {
    t = await TestService.start();
    w = await workplace(t, "America/New_York", 20, { manager: {} });
    url = await listen(t);
  });
  afterAll(() => t.stop());

  /** Changes something the subscription would see until the socket has closed; answers the close code. */
  async function closedByChange(c: ReturnType<typeof connect>, change: () => Promise<unknown>): Promise<number> {
    let code: number | undefined;
    void c.closed.then((x) => (code = x));
    while (code === undefined) await change();
    return code;
  }
  let day = 1;
  const shift = async () => {
    day += 1;
    const date = `2026-01-${String(day).padStart(2, "0")}`;
    await t.as(w.org.token).post("/api/timesheets", {
      employeeId: w.workerId,
      locationId: w.locationId,
      roleId: w.roleId,
      startTime: `${date}T09:00:00`,
      endTime: `${date}T17:00:00`,
    });
  };

  it("closes the socket when the token expires, with a code of its own (4410, not 4403)", async () => {
    const short = await TestService.start({ env: { TOKEN_TTL_SECONDS: "1" } });
    try {
      const org = await short.organization();
      const c = connect(await listen(short), org.token);
      expect(await c.outcome).toBe("acknowledged");
      expect(await c.closed).toBe(4410);
      await c.close();
    } finally {
      await short.stop();
    }
  });

  it("ends a revoked API key's subscription before it delivers another event", async () => {
    const created = await t.as(w.org.token).post(`${w.orgBase}/api-keys`, { name: "Dashboard" });
    const token = await t.token(created.body.secret);
    const c = connect(url, token);
    expect(await c.outcome).toBe("acknowledged");
    await t.as(w.org.token).delete(`${w.orgBase}/api-keys/${created.body.apiKey.id}`);
    t.clock.advance(61_000);
    const seenBefore = c.got.types.length;
    expect(await closedByChange(c, shift)).toBe(4403);
    expect(c.got.types.length).toBe(seenBefore);
    await c.close();
  });

  it("ends a demoted manager's subscription to everyone's shifts", async () => {
    const c = connect(url, w.manager!.token, SHIFTS);
    expect(await c.outcome).toBe("acknowledged");
    while (!c.got.types.length) await shift();
    const roles = await t.as(w.org.token).get(`${w.orgBase}/access-roles`);
    const worker = (roles.body as { id: string; name: string }[]).find((r) => r.name === "Worker")!;
    expect((await t.as(w.org.token).patch(`${w.orgBase}/staff/${w.manager!.id}`, { accessRoleId: worker.id })).status).toBe(200);
    t.clock.advance(61_000);
    const seenBefore = c.got.types.length;
    expect(await closedByChange(c, shift)).toBe(4403);
    expect(c.got.types.length).toBe(seenBefore);
    await c.close();
  });
});
