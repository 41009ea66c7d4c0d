import { TestService } from "../support/harness";

describe("health", () => {
  let t: TestService;
  beforeAll(async () => (t = await TestService.start()));
  afterAll(() => t.stop());

  it("answers liveness and readiness", async () => {
    expect((await t.http.get("/healthz")).body).toMatchObject({ status: "ok", process: { eventLoopDelayMs: expect.any(Object) } });
    expect((await t.http.get("/readyz")).body).toEqual({ status: "ready", databases: [{ name: "primary", role: "primary", status: "ok" }] });
  });
});
