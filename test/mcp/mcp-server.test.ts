import { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TestService } from "../support/harness";
import { organizationData } from "../support/records";
import { fileTimeOff } from "../support/time-off";
import { workplace, Workplace } from "../support/workplace";

interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: { type: string; text?: string }[];
}

describe("the MCP server at /mcp", () => {
  let t: TestService;
  let w: Workplace;
  let url: URL;
  const clients: Client[] = [];
  const entryIds: string[] = [];
  let requestId: string;
  let templateId: string;

  beforeAll(async () => {
    // Rate limits on (the suite's default is off), with a budget no test comes near.
    t = await TestService.start({ env: { RATE_LIMIT_POINTS: "1000000", RATE_LIMIT_ORGANIZATION_POINTS: "10000000" } });
    await new Promise<void>((resolve) => t.runtime.server.listen(0, "127.0.0.1", resolve));
    url = new URL(`http://127.0.0.1:${(t.runtime.server.address() as AddressInfo).port}/mcp`);
    w = await workplace(t, "America/New_York", 20, { manager: {} });
    const api = t.as(w.manager!.token);
    const base = `${w.orgBase}/locations/${w.locationId}/schedules`;
    for (const day of ["2026-03-05", "2026-03-06", "2026-03-09"]) {
      await api.post(`${base}/drafts`, { workerId: w.workerId, roleId: w.roleId, startTime: `${day}T09:00:00`, endTime: `${day}T17:00:00` });
    }
    expect((await api.post(`${base}/publish`, { startDate: "2026-03-05", endDate: "2026-03-09" })).status).toBe(200);
    // Two people wanted on a "Day" template on the 5th and 6th; the entries there carry no template, so four are missing.
    templateId = (
      await api.post(`${w.orgBase}/locations/${w.locationId}/shift-templates`, { name: "Day", roleId: w.roleId, startTime: "09:00", endTime: "17:00" })
    ).body.id;
    const requirements = ["2026-03-05", "2026-03-06"].map((date) => ({ date, templateId, count: 2 }));
    expect((await api.put(`${w.orgBase}/locations/${w.locationId}/coverage`, { startDate: "2026-03-05", endDate: "2026-03-06", requirements })).status).toBe(
      200,
    );
    entryIds.push(...(await api.get(`${base}?startDate=2026-03-01&endDate=2026-03-31`)).body.map((e: { id: string }) => e.id));
    // Clocking in with nothing scheduled leaves an open exception, once the organization has an attendance policy.
    expect((await api.put(`${w.orgBase}/attendance-policy`, { lateGraceMinutes: 5 })).status).toBe(200);
    expect((await t.as(w.workerToken).post("/api/time-tracking/clock-in", { locationId: w.locationId, roleId: w.roleId })).status).toBe(201);
    requestId = await fileTimeOff(t, w.org, w.workerId, "2026-03-20T09:00:00-04:00", "2026-03-20T17:00:00-04:00", "pending");
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await t?.stop();
  });

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: "test assistant", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }

  const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const errorOf = (answer: ToolAnswer) => JSON.parse(answer.content[0].text!).error as { code: string };
  const auditCount = async () => Number((await t.runtime.db.query("SELECT count(*) AS n FROM audit_events WHERE organization_id = $1", [w.org.id]))[0].n);

  const WRITE_TOOLS = ["create_schedule_draft", "generate_schedule", "approve_time_off_request", "decline_time_off_request", "approve_shift_request"];
  const WORKER_TOOLS = ["get_schedule", "get_time_off_balances", "list_pending_time_off_requests", "list_open_attendance_exceptions"];
  const READ_TOOLS = [...WORKER_TOOLS, "get_coverage_gaps", "check_eligibility"];

  it("lists a worker only the tools that read, and a manager the writes too, annotated and typed", async () => {
    const worker = await (await connect(w.workerToken)).listTools();
    expect(worker.tools.map((x) => x.name).sort()).toEqual([...WORKER_TOOLS].sort());
    for (const x of worker.tools) expect(x.annotations?.readOnlyHint).toBe(true);

    const manager = await (await connect(w.manager!.token)).listTools();
    expect(manager.tools.map((x) => x.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const x of manager.tools) {
      expect(x.inputSchema.type).toBe("object");
      expect(x.outputSchema?.type).toBe("object");
      if (!WRITE_TOOLS.includes(x.name)) continue;
      expect(x.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
      expect(typeof x.annotations?.destructiveHint).toBe("boolean");
      expect((x.inputSchema.properties as Record<string, { default?: unknown }>).dryRun.default).toBe(true);
    }
  });

  it("refuses a call without a token, and a worker's call of a write", async () => {
    const anonymous = new Client({ name: "anonymous", version: "1.0.0" });
    await expect(anonymous.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow(/UNAUTHENTICATED/);
    const worker = await connect(w.workerToken);
    const refused = await worker.callTool({ name: "approve_time_off_request", arguments: { requestId, dryRun: false } }).then(
      (answer) => (answer as ToolAnswer).isError === true,
      () => true,
    );
    expect(refused).toBe(true);
    expect((await t.as(w.org.token).get(`${w.orgBase}/time-off-requests/${requestId}`)).body.status).toBe("pending");
  });

  it("answers each read tool in small pages with ids, within the caller's own records", async () => {
    const manager = await connect(w.manager!.token);
    const first = await call(manager, "get_schedule", { locationId: w.locationId, startDate: "2026-03-01", endDate: "2026-03-31", limit: 2 });
    expect(first.isError ? first.content[0].text : undefined).toBeUndefined();
    expect(first.structuredContent!.entries.map((e: { id: string }) => e.id)).toEqual(entryIds.slice(0, 2));
    expect(first.structuredContent!.entries[0]).toMatchObject({ workerId: w.workerId, roleName: "Cashier", startTime: "2026-03-05T09:00:00.000-05:00" });
    const second = await call(manager, "get_schedule", {
      locationId: w.locationId,
      startDate: "2026-03-01",
      endDate: "2026-03-31",
      limit: 2,
      cursor: first.structuredContent!.nextCursor,
    });
    expect(second.structuredContent).toMatchObject({ entries: [{ id: entryIds[2], startTime: "2026-03-09T09:00:00.000-04:00" }], nextCursor: null });

    const balances = await call(manager, "get_time_off_balances", { workerId: w.workerId });
    expect(balances.structuredContent!.balances.length).toBeGreaterThan(0);
    expect(balances.structuredContent!.balances[0]).toMatchObject({ workerId: w.workerId });

    const pending = await call(manager, "list_pending_time_off_requests", {});
    expect(pending.structuredContent!.requests.map((r: { id: string }) => r.id)).toEqual([requestId]);
    expect(pending.structuredContent!.requests[0]).toMatchObject({ status: "pending", totalHours: 8 });

    const exceptions = await call(manager, "list_open_attendance_exceptions", { startDate: "2026-03-01", endDate: "2026-03-31", kind: "UNSCHEDULED_SHIFT" });
    expect(exceptions.structuredContent).toMatchObject({
      exceptions: [{ kind: "UNSCHEDULED_SHIFT", staffId: w.workerId, locationId: w.locationId, date: "2026-03-02" }],
      nextCursor: null,
    });

    const gaps = await call(manager, "get_coverage_gaps", { locationId: w.locationId, startDate: "2026-03-01", endDate: "2026-03-31", limit: 1 });
    expect(gaps.structuredContent).toEqual({
      gaps: [{ date: "2026-03-05", templateId, templateName: "Day", required: 2, assigned: 0, missing: 2 }],
      totalMissing: 4,
      nextCursor: "1",
    });
    const moreGaps = await call(manager, "get_coverage_gaps", {
      locationId: w.locationId,
      startDate: "2026-03-01",
      endDate: "2026-03-31",
      limit: 1,
      cursor: "1",
    });
    expect(moreGaps.structuredContent).toMatchObject({ gaps: [{ date: "2026-03-06" }], nextCursor: null });

    const shift = { locationId: w.locationId, roleId: w.roleId, startTime: "2026-03-05T12:00", endTime: "2026-03-05T20:00" };
    const busy = (await call(manager, "check_eligibility", { ...shift, staffIds: [w.workerId] })).structuredContent!;
    expect(busy).toMatchObject({ eligibleCount: 0, staff: [{ staffId: w.workerId, eligible: false }] });
    expect(busy.staff[0].reasons.map((r: { code: string }) => r.code)).toContain("OVERLAP");
    const free = (await call(manager, "check_eligibility", { ...shift, startTime: "2026-03-10T09:00", endTime: "2026-03-10T17:00" })).structuredContent!;
    // Eligible people first: the worker with the role; the manager, without it, after.
    expect(free.staff[0]).toMatchObject({ staffId: w.workerId, eligible: true, reasons: [] });
    expect(free.staff.find((s: { staffId: string }) => s.staffId === w.manager!.id)).toMatchObject({
      eligible: false,
      reasons: expect.arrayContaining([expect.objectContaining({ code: "ROLE" })]),
    });

    // A worker's own schedule answers through the same operation, with the worker's own limits.
    const own = await call(await connect(w.workerToken), "get_schedule", { locationId: w.locationId, startDate: "2026-03-01", endDate: "2026-03-31" });
    expect(own.structuredContent!.entries).toHaveLength(3);
  });

  it("changes nothing on a dry run (the audit trail and every table as they were), and writes with the token's actor otherwise", async () => {
    const manager = await connect(w.manager!.token);
    const before = await organizationData(t, [w.org.id]);
    const audited = await auditCount();

    const wouldApprove = await call(manager, "approve_time_off_request", { requestId });
    expect(wouldApprove.structuredContent).toMatchObject({ dryRun: true, wouldBecome: "approved", request: { id: requestId, status: "pending" } });
    const wouldDecline = await call(manager, "decline_time_off_request", { requestId, reason: "Short-staffed" });
    expect(wouldDecline.structuredContent).toMatchObject({ dryRun: true, wouldBecome: "declined" });
    const draft = { locationId: w.locationId, workerId: w.workerId, roleId: w.roleId, startTime: "2026-03-10T09:00", endTime: "2026-03-10T17:00" };
    const wouldCreate = await call(manager, "create_schedule_draft", draft);
    expect(wouldCreate.structuredContent).toMatchObject({
      dryRun: true,
      draft: { id: "", workerId: w.workerId, startTime: "2026-03-10T09:00:00.000-04:00" },
      overlaps: [],
    });
    const wouldOverlap = await call(manager, "create_schedule_draft", { ...draft, startTime: "2026-03-09T16:00", endTime: "2026-03-09T20:00" });
    expect(wouldOverlap.structuredContent!.overlaps).toEqual([entryIds[2]]);
    expect(errorOf(await call(manager, "create_schedule_draft", { ...draft, endTime: "2026-03-10T08:00" })).code).toBe("VALIDATION_FAILED");

    const wouldGenerate = await call(manager, "generate_schedule", {
      locationId: w.locationId,
      startDate: "2026-03-05",
      endDate: "2026-03-06",
      mode: "REPLACE_DRAFTS",
    });
    expect(wouldGenerate.structuredContent).toEqual({ dryRun: true, generation: null, missingBefore: 4, draftsReplaced: 0 });

    expect(await auditCount()).toBe(audited);
    expect(await organizationData(t, [w.org.id])).toEqual(before);

    const approved = await call(manager, "approve_time_off_request", { requestId, dryRun: false });
    expect(approved.structuredContent).toMatchObject({ dryRun: false, request: { id: requestId, status: "approved" } });
    const created = await call(manager, "create_schedule_draft", { ...draft, dryRun: false });
    const draftId = created.structuredContent!.draft.id;
    expect(draftId).toMatch(/^[0-9a-f-]{36}$/);
    const generated = await call(manager, "generate_schedule", { locationId: w.locationId, startDate: "2026-03-05", endDate: "2026-03-06", dryRun: false });
    expect(generated.structuredContent).toMatchObject({
      dryRun: false,
      generation: { status: "QUEUED", mode: "FILL", startDate: "2026-03-05" },
      missingBefore: 4,
    });
    const trail: { resource_type: string; actor_staff_id: string | null }[] = await t.runtime.db.query(
      `SELECT resource_type, actor_staff_id FROM audit_events
        WHERE organization_id = $1 AND ((resource_id = $2 AND action = 'update') OR (resource_id = ANY ($3) AND action = 'insert'))`,
      [w.org.id, requestId, [draftId, generated.structuredContent!.generation.id]],
    );
    expect(new Set(trail.map((r) => r.resource_type))).toEqual(new Set(["time_off_requests", "schedule_drafts", "schedule_generations"]));
    for (const row of trail) expect(row.actor_staff_id).toBe(w.manager!.id);
    // Not pending any more: a dry run says it cannot be decided.
    expect((await call(manager, "decline_time_off_request", { requestId })).structuredContent).toMatchObject({ wouldBecome: null });
  });

  it("answers another organization's ids as not found, dry run or not", async () => {
    const other = await workplace(t, "Europe/Paris", 20, { manager: {} });
    const stranger = await connect(other.manager!.token);
    expect(errorOf(await call(stranger, "get_schedule", { locationId: w.locationId, startDate: "2026-03-01", endDate: "2026-03-31" })).code).toBe("NOT_FOUND");
    expect(errorOf(await call(stranger, "approve_time_off_request", { requestId })).code).toBe("NOT_FOUND");
    expect(errorOf(await call(stranger, "decline_time_off_request", { requestId, dryRun: false })).code).toBe("NOT_FOUND");
    // A shift request id that names nothing of the caller's, whether looked at or approved.
    const nowhere = "0b5e8f9c-1d2a-4c3b-9e8f-7a6b5c4d3e2f";
    expect(errorOf(await call(stranger, "approve_shift_request", { requestId: nowhere })).code).toBe("NOT_FOUND");
    expect(errorOf(await call(stranger, "approve_shift_request", { requestId: nowhere, dryRun: false })).code).toBe("NOT_FOUND");
    expect(
      errorOf(
        await call(stranger, "create_schedule_draft", {
          locationId: w.locationId,
          workerId: w.workerId,
          roleId: w.roleId,
          startTime: "2026-03-10T09:00",
          endTime: "2026-03-10T17:00",
        }),
      ).code,
    ).toBe("NOT_FOUND");
    expect((await call(stranger, "list_pending_time_off_requests", { workerId: w.workerId })).structuredContent).toEqual({ requests: [], nextCursor: null });
    expect(errorOf(await call(stranger, "get_coverage_gaps", { locationId: w.locationId, startDate: "2026-03-01", endDate: "2026-03-31" })).code).toBe(
      "NOT_FOUND",
    );
    expect(
      errorOf(
        await call(stranger, "check_eligibility", { locationId: w.locationId, roleId: w.roleId, startTime: "2026-03-10T09:00", endTime: "2026-03-10T17:00" }),
      ).code,
    ).toBe("NOT_FOUND");
    expect(
      errorOf(await call(stranger, "generate_schedule", { locationId: w.locationId, startDate: "2026-03-05", endDate: "2026-03-06", dryRun: false })).code,
    ).toBe("NOT_FOUND");
    expect(
      (await call(stranger, "list_open_attendance_exceptions", { startDate: "2026-03-01", endDate: "2026-03-31", locationId: w.locationId })).structuredContent,
    ).toEqual({ exceptions: [], nextCursor: null });
  });

  it("spends the caller's rate limit like any other call: a tool call its page size", async () => {
    const post = (message: object) =>
      t.http
        .post("/mcp")
        .set("Authorization", `Bearer ${w.workerToken}`)
        .set("Accept", "application/json, text/event-stream")
        .send({ jsonrpc: "2.0", id: 1, ...message });
    const left = (answer: { headers: Record<string, string> }) => Number(/;r=(\d+);/.exec(answer.headers.ratelimit)![1]);
    const listed = await post({ method: "tools/list" });
    expect(listed.status).toBe(200);
    const called = await post({
      method: "tools/call",
      params: { name: "get_schedule", arguments: { locationId: w.locationId, startDate: "2026-03-01", endDate: "2026-03-02", limit: 7 } },
    });
    expect(called.status).toBe(200);
    expect(left(listed) - left(called)).toBe(7);
  });
});
