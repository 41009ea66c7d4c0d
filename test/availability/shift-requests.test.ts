import { TestService } from "../support/harness";
import { countStatements, planOf } from "../support/statements";
import { scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";

const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;
/** The read of the locations' compliance rules (compliance/schedule-compliance.ts). */
const RULES_READ = /SELECT p\.preset, p\.overrides/;

/**
 * Swaps, covers and drops at an Oregon location (US_OR: 10 h rest at 1.5×, 14 days' notice) that
 * caps the workweek at 40 h, on Friday 2026-03-06 at noon New York time; the cook earns $20.
 */
describe("shift requests", () => {
  let t: TestService;
  let w: ScheduleWorkplace;
  let org: string;
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-03-06T17:00:00.000Z" });
    w = await scheduleWorkplace(t, "Requests Diner");
    org = `/api/organizations/${w.org.id}`;
    expect((await t.as(w.manager).patch(`${w.base}/compliance`, { preset: "US_OR", maxWeeklyHours: 40 })).status).toBe(200);
  });
  afterAll(() => t.stop());

  const entry = async (workerId: string, day: string, from: string, to: string): Promise<string> => {
    const res = await t.as(w.manager).post(`${w.base}/schedules`, { workerId, roleId: w.roleId, startTime: `${day}T${from}:00`, endTime: `${day}T${to}:00` });
    if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id;
  };
  const workerOf = async (entryId: string) => (await t.runtime.db.query("SELECT worker_id FROM schedule_entries WHERE id = $1", [entryId]))[0].worker_id;

  it("swaps two entries: recipient accepts, the manager approves, the entries change hands, every step an event", async () => {
    const [ann, bob] = [await w.worker(), await w.worker()];
    const annEntry = await entry(ann.id, "2026-03-10", "09:00", "17:00");
    const bobEntry = await entry(bob.id, "2026-03-11", "09:00", "17:00");
    const creation = countStatements();
    const created = await t.as(ann.token).post(`${org}/shift-requests`, { type: "SWAP", entryId: annEntry, recipientEntryId: bobEntry, note: "Dentist" });
    creation.stop();
    expect(created.status).toBe(201);
    // The preview evaluates the entries the creation read, and reads the location's rules once for itself and its exemption.
    expect(creation.sql.filter((q) => /FROM schedule_entries e JOIN locations l/.test(q))).toHaveLength(1);
    expect(creation.sql.filter((q) => RULES_READ.test(q))).toHaveLength(1);
    expect(created.body).toMatchObject({
      type: "SWAP",
      status: "PENDING_RECIPIENT",
      requesterStaffId: ann.id,
      recipientStaffId: bob.id,
      entryId: annEntry,
      recipientEntryId: bobEntry,
    });
    // Inside the notice window, but the workers asked: no predictability pay, said with the citation.
    expect(created.body.preview.predictabilityPayExemption).toContain("(ORS 653.455(3)(b), shift swaps and coverage employees agree on)");
    expect(created.body.preview.people).toEqual([
      expect.objectContaining({ staffId: bob.id, entryId: annEntry, eligible: true, premiums: [] }),
      expect.objectContaining({ staffId: ann.id, entryId: bobEntry, eligible: true, premiums: [] }),
    ]);
    expect((await t.as(ann.token).post(`${org}/shift-requests/${created.body.id}/accept`)).status).toBe(403);
    const acceptance = countStatements();
    const accepted = await t.as(bob.token).post(`${org}/shift-requests/${created.body.id}/accept`);
    acceptance.stop();
    expect(accepted.body.status).toBe("PENDING_APPROVAL");
    // Its one event is the request's step, which no GET renders: no savepoint is taken for it.
    expect(acceptance.sql.filter((q) => /SAVEPOINT/.test(q))).toEqual([]);
    // Its answer's preview is the acceptance's own evaluation, with the rules it read: nothing is read after the commit.
    expect(acceptance.sql.slice(acceptance.sql.indexOf("COMMIT") + 1)).toEqual([]);
    // The sweep of stale requests each change begins with names the organization outright, so PostgreSQL can keep one plan for it.
    const sweep = acceptance.sql.filter((q) => /SET status = 'EXPIRED'/.test(q));
    expect(sweep).toHaveLength(1);
    expect(sweep[0]).toMatch(/WHERE r\.organization_id = \$1 AND/);
    // It looks each live request's entries up by their key, rather than hashing every entry of every organization at each change.
    expect(await planOf(t.runtime.db, sweep[0], [w.org.id, t.clock.now()])).not.toMatch(/hashed SubPlan/);
    expect((await t.as(bob.token).post(`${org}/shift-requests/${created.body.id}/approve`, {})).status).toBe(403);
    const payRows = () => t.runtime.db.query("SELECT count(*)::int AS n FROM predictability_pay WHERE entry_id = ANY($1::uuid[])", [[annEntry, bobEntry]]);
    const payBefore = await payRows();
    const statements = countStatements();
    const approved = await t.as(w.manager).post(`${org}/shift-requests/${created.body.id}/approve`, {});
    const sql = statements.sql;
    statements.stop();
    expect(approved.body).toMatchObject({ status: "APPROVED", decidedAt: "2026-03-06T17:00:00.000Z" });
    expect([await workerOf(annEntry), await workerOf(bobEntry)]).toEqual([bob.id, ann.id]);
    // The entries are read once, locked, for both the check and the move, and change hands in one statement.
    expect(sql.filter((q) => /UPDATE schedule_entries/.test(q))).toHaveLength(1);
    const hookStarts = sql.indexOf("SAVEPOINT event_resources");
    expect(hookStarts).toBeGreaterThan(0);
    expect(sql.slice(0, hookStarts).filter((q) => /FROM schedule_entries e JOIN locations l/.test(q))).toHaveLength(1);
    // The answer's preview is the evaluation the approval made in its transaction: nobody's eligibility is read again after it.
    const committed = sql.indexOf("COMMIT", hookStarts);
    expect(sql.slice(0, committed).filter((q) => /AS q\(idx, location_id, role_id, staff_id\)/.test(q))).toHaveLength(1);
    expect(sql.slice(committed + 1)).toEqual([]);
    expect(approved.body.preview.people).toEqual([
      expect.objectContaining({ staffId: bob.id, entryId: annEntry, eligible: true, premiums: [] }),
      expect.objectContaining({ staffId: ann.id, entryId: bobEntry, eligible: true, premiums: [] }),
    ]);
    const events = await t.runtime.db.query(
      "SELECT type FROM events WHERE organization_id = $1 AND type LIKE 'shift_request.%' AND object->>'id' = $2 ORDER BY sequence",
      [w.org.id, created.body.id],
    );
    expect(events.map((e: { type: string }) => e.type)).toEqual(["shift_request.created", "shift_request.pending_approval", "shift_request.approved"]);
    const audit = await t.runtime.db.query(
      "SELECT count(*)::int AS n FROM audit_events WHERE organization_id = $1 AND resource_type = 'shift_requests' AND resource_id = $2",
      [w.org.id, created.body.id],
    );
    expect(audit[0].n).toBe(3);
    // No predictability pay recorded for a trade the workers asked for.
    expect(await payRows()).toEqual(payBefore);
  });

  it("swaps two entries at the same hours in one statement: the no-double-booking check waits for its end", async () => {
    const [eve, fay] = [await w.worker(), await w.worker()];
    const eveEntry = await entry(eve.id, "2026-03-13", "09:00", "17:00");
    const fayEntry = await entry(fay.id, "2026-03-13", "09:00", "17:00");
    const created = await t.as(eve.token).post(`${org}/shift-requests`, { type: "SWAP", entryId: eveEntry, recipientEntryId: fayEntry });
    expect(created.status).toBe(201);
    expect((await t.as(fay.token).post(`${org}/shift-requests/${created.body.id}/accept`)).body.status).toBe("PENDING_APPROVAL");
    const statements = countStatements();
    const approved = await t.as(w.manager).post(`${org}/shift-requests/${created.body.id}/approve`, {});
    const sql = statements.sql;
    statements.stop();
    expect(approved.body).toMatchObject({ status: "APPROVED" });
    expect([await workerOf(eveEntry), await workerOf(fayEntry)]).toEqual([fay.id, eve.id]);
    // Each entry overlaps the other's worker until both have moved: one UPDATE, checked at its end, no deferral needed.
    expect(sql.filter((q) => /UPDATE schedule_entries/.test(q))).toHaveLength(1);
    expect(sql.filter((q) => /SET CONSTRAINTS/.test(q))).toEqual([]);
  });

  it("keeps a worker out of another's requests", async () => {
    const [cy, dee] = [await w.worker(), await w.worker()];
    const cyEntry = await entry(cy.id, "2026-03-12", "09:00", "17:00");
    const named = await t.as(cy.token).post(`${org}/shift-requests`, { type: "COVER", entryId: cyEntry, recipientStaffId: (await w.worker()).id });
    expect(named.status).toBe(201);
    expect((await t.as(dee.token).get(`${org}/shift-requests/${named.body.id}`)).status).toBe(404);
    expect((await t.as(dee.token).get(`${org}/shift-requests`)).body.map((r: { id: string }) => r.id)).not.toContain(named.body.id);
    expect((await t.as(dee.token).post(`${org}/shift-requests/${named.body.id}/cancel`)).status).toBe(404);
    const deeEntry = await entry(dee.id, "2026-03-13", "09:00", "17:00");
    expect((await t.as(cy.token).post(`${org}/shift-requests`, { type: "DROP", entryId: deeEntry })).status).toBe(403);
    expect((await t.as(cy.token).get(`${org}/shift-requests`)).body.map((r: { id: string }) => r.id)).toContain(named.body.id);
  });

  /** A swap of two new workers' entries on `days`, the recipient's entry then moved an hour by a manager: stale, not yet marked. */
  async function swapMadeStale(days: [string, string]) {
    const [asker, recipient] = [await w.worker(), await w.worker()];
    const askerEntry = await entry(asker.id, days[0], "09:00", "17:00");
    const recipientEntry = await entry(recipient.id, days[1], "09:00", "17:00");
    const swap = (await t.as(asker.token).post(`${org}/shift-requests`, { type: "SWAP", entryId: askerEntry, recipientEntryId: recipientEntry })).body;
    expect((await t.as(w.manager).patch(`${w.base}/schedules/${recipientEntry}`, { startTime: `${days[1]}T10:00:00` })).status).toBe(200);
    return { asker, recipient, swap };
  }

  it("expires a swap whose entry changed meanwhile", async () => {
    const { asker, recipient, swap } = await swapMadeStale(["2026-03-16", "2026-03-17"]);
    expect((await t.as(asker.token).get(`${org}/shift-requests/${swap.id}`)).body.status).toBe("EXPIRED");
    const late = await t.as(recipient.token).post(`${org}/shift-requests/${swap.id}/accept`);
    expect([late.status, late.body.error.code]).toEqual([409, "REQUEST_EXPIRED"]);
    const events = await t.runtime.db.query("SELECT type FROM events WHERE organization_id = $1 AND object->>'id' = $2 ORDER BY sequence", [w.org.id, swap.id]);
    expect(events.map((e: { type: string }) => e.type)).toEqual(["shift_request.created", "shift_request.expired"]);
  });

  it("expires, in the background job of every organization, a request whose entry changed", async () => {
    const { swap } = await swapMadeStale(["2026-03-18", "2026-03-19"]);
    expect(await t.runtime.services.shiftRequests.expireAll()).toBeGreaterThanOrEqual(1);
    const [stored] = await t.runtime.db.query("SELECT status FROM shift_requests WHERE organization_id = $1 AND id = $2", [w.org.id, swap.id]);
    expect(stored.status).toBe("EXPIRED");
  });

  it("refuses an approval over the weekly maximum, then takes it acknowledged with a reason", async () => {
    const [gus, hal] = [await w.worker(), await w.worker()];
    for (const day of ["2026-03-23", "2026-03-24", "2026-03-25", "2026-03-26"]) await entry(hal.id, day, "08:00", "18:00");
    const gusEntry = await entry(gus.id, "2026-03-27", "09:00", "17:00");
    const cover = (await t.as(gus.token).post(`${org}/shift-requests`, { type: "COVER", entryId: gusEntry, recipientStaffId: hal.id })).body;
    expect(cover.preview.people[0]).toMatchObject({ staffId: hal.id, eligible: false, reasons: [expect.objectContaining({ code: "MAX_WEEKLY_HOURS" })] });
    expect((await t.as(hal.token).post(`${org}/shift-requests/${cover.id}/accept`)).body.status).toBe("PENDING_APPROVAL");
    const refused = await t.as(w.manager).post(`${org}/shift-requests/${cover.id}/approve`, {});
    expect([refused.status, refused.body.error.code, refused.body.error.details[0].ruleId]).toEqual([409, "COMPLIANCE_VIOLATION", "MAX_WEEKLY_HOURS"]);
    expect(await workerOf(gusEntry)).toBe(gus.id);
    const noReason = await t.as(w.manager).post(`${org}/shift-requests/${cover.id}/approve`, { acknowledge: true });
    expect([noReason.status, noReason.body.error.details[0].field]).toEqual([400, "reason"]);
    const approved = await t.as(w.manager).post(`${org}/shift-requests/${cover.id}/approve`, { acknowledge: true, reason: "Hal asked for the hours" });
    expect(approved.body).toMatchObject({ status: "APPROVED", acknowledgedReason: "Hal asked for the hours" });
    expect(await workerOf(gusEntry)).toBe(hal.id);
  });

  it("prices a rest shortfall in the preview and approves it without acknowledgement", async () => {
    const [ida, jon] = [await w.worker(), await w.worker()];
    await entry(jon.id, "2026-03-18", "15:00", "23:00");
    const idaEntry = await entry(ida.id, "2026-03-19", "07:00", "15:00");
    const cover = (await t.as(ida.token).post(`${org}/shift-requests`, { type: "COVER", entryId: idaEntry, recipientStaffId: jon.id })).body;
    // 8 h of rest where Oregon asks 10: the 2 h inside it at half again $20 = $20.
    expect(cover.preview.people[0]).toMatchObject({
      staffId: jon.id,
      eligible: true,
      warnings: [expect.objectContaining({ code: "REST_BETWEEN_SHIFTS", hours: 2, amount: 20 })],
      premiums: [{ ruleId: "REST_BETWEEN_SHIFTS", hours: 2, amount: 20, citation: expect.stringContaining("653.442") }],
    });
    await t.as(jon.token).post(`${org}/shift-requests/${cover.id}/accept`);
    expect((await t.as(w.manager).post(`${org}/shift-requests/${cover.id}/approve`, {})).body.status).toBe("APPROVED");
  });

  it("completes at acceptance where the location needs no approval; a drop becomes an open shift of one place", async () => {
    const settings = await t.as(w.manager).patch(`${w.base}/shift-request-settings`, { shiftRequestsRequireApproval: false });
    expect(settings.body).toEqual({ locationId: w.locationId, shiftRequestsRequireApproval: false });
    try {
      const [kim, lou] = [await w.worker(), await w.worker()];
      const kimEntry = await entry(kim.id, "2026-03-20", "09:00", "17:00");
      const cover = (await t.as(kim.token).post(`${org}/shift-requests`, { type: "COVER", entryId: kimEntry })).body;
      expect(cover.status).toBe("OPEN");
      expect((await t.as(lou.token).get(`${org}/shift-requests`)).body.map((r: { id: string }) => r.id)).toContain(cover.id);
      const taken = await t.as(lou.token).post(`${org}/shift-requests/${cover.id}/accept`);
      expect(taken.body).toMatchObject({ status: "APPROVED", recipientStaffId: lou.id });
      expect(await workerOf(kimEntry)).toBe(lou.id);
      const louEntry = kimEntry;
      const drop = (await t.as(lou.token).post(`${org}/shift-requests`, { type: "DROP", entryId: louEntry })).body;
      expect(drop.status).toBe("APPROVED");
      // Giving a shift up is a change the worker asked for, not a trade: the exceptions of ORS 653.455(3), not (3)(b) alone.
      expect(drop.preview.predictabilityPayExemption).toContain("(ORS 653.455(3), changes an employee asks for)");
      const open = (await t.as(w.manager).get(`${w.base}/open-shifts/${drop.openShiftId}`)).body;
      expect(open).toMatchObject({ staffCountRequired: 1, isPublished: true, startDate: "2026-03-20T09:00:00.000-04:00" });
      expect((await t.runtime.db.query("SELECT deleted_at FROM schedule_entries WHERE id = $1", [louEntry]))[0].deleted_at).not.toBeNull();
    } finally {
      await t.as(w.manager).patch(`${w.base}/shift-request-settings`, { shiftRequestsRequireApproval: true });
    }
    const [max, ned] = [await w.worker(), await w.worker()];
    const cover = (
      await t
        .as(max.token)
        .post(`${org}/shift-requests`, { type: "COVER", entryId: await entry(max.id, "2026-03-21", "09:00", "17:00"), recipientStaffId: ned.id })
    ).body;
    expect((await t.as(ned.token).post(`${org}/shift-requests/${cover.id}/accept`)).body.status).toBe("PENDING_APPROVAL");
  });

  it("answers a page of requests with their previews in as many statements as a page of one, by REST and GraphQL", async () => {
    // An organization of its own, so the pages hold only these requests.
    const p = await scheduleWorkplace(t, "Page Diner");
    const base = `/api/organizations/${p.org.id}`;
    expect((await t.as(p.manager).patch(`${p.base}/compliance`, { preset: "US_OR" })).status).toBe(200);
    const at = async (workerId: string, day: string, from: string, to: string) => {
      const res = await t.as(p.manager).post(`${p.base}/schedules`, { workerId, roleId: p.roleId, startTime: `${day}T${from}:00`, endTime: `${day}T${to}:00` });
      if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    };
    const viewer = await p.worker();
    /** Request i: a swap, a named cover, an open cover or a drop, in turn, each on a day of its own; the first is a swap with the viewer. */
    const request = async (i: number) => {
      const owner = await p.worker();
      const day = `2026-04-${String(i + 1).padStart(2, "0")}`;
      const entryId = await at(owner.id, day, "09:00", "15:00");
      const kind = i % 4;
      const body =
        kind === 0
          ? { type: "SWAP", entryId, recipientEntryId: await at(i === 0 ? viewer.id : (await p.worker()).id, day, "16:00", "22:00") }
          : kind === 1
            ? { type: "COVER", entryId, recipientStaffId: (await p.worker()).id }
            : kind === 2
              ? { type: "COVER", entryId }
              : { type: "DROP", entryId };
      const res = await t.as(owner.token).post(`${base}/shift-requests`, body);
      if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    };
    const query = "{ shiftRequests { id preview { people { staffId eligible reasons { code } premiums { amount } } predictabilityPayExemption } } }";
    const reads = {
      rest: () => t.as(p.manager).get(`${base}/shift-requests`),
      graphql: () => t.gql(p.manager, query),
      worker: () => t.as(viewer.token).get(`${base}/shift-requests`),
    };
    /** The statements of reading the page one way (after a read to warm up), and the page's length. */
    const page = async (name: keyof typeof reads) => {
      await reads[name]();
      const count = countStatements();
      try {
        const res = await reads[name]();
        return { statements: count.count, length: "data" in res ? res.data!.shiftRequests.length : (res as { body: unknown[] }).body.length };
      } finally {
        count.stop();
      }
    };
    await request(0);
    const one = { rest: await page("rest"), graphql: await page("graphql") };
    expect([one.rest.length, one.graphql.length]).toEqual([1, 1]);
    // The viewer's first page holds their swap and an open cover they may take: both evaluations a worker's page makes.
    await request(2);
    const viewersFirst = await page("worker");
    expect(viewersFirst.length).toBe(2);
    for (let i = 1; i < 20; i++) if (i !== 2) await request(i);
    const twenty = { rest: await page("rest"), graphql: await page("graphql"), worker: await page("worker") };
    expect([twenty.rest.length, twenty.graphql.length, twenty.worker.length]).toEqual([20, 20, 6]);
    expect(twenty.rest.statements).toBe(one.rest.statements);
    expect(twenty.graphql.statements).toBe(one.graphql.statements);
    expect(twenty.worker.statements).toBe(viewersFirst.statements);
  });

  onPostgres("two workers accept one open cover at once: one wins, the other is refused", async () => {
    const [owner, a, b] = [await w.worker(), await w.worker(), await w.worker()];
    const ownerEntry = await entry(owner.id, "2026-03-30", "09:00", "17:00");
    const cover = (await t.as(owner.token).post(`${org}/shift-requests`, { type: "COVER", entryId: ownerEntry })).body;
    const results = await Promise.all([a, b].map((x) => t.as(x.token).post(`${org}/shift-requests/${cover.id}/accept`)));
    // The loser finds the cover taken: a 409 when it read it before the winner committed, a 404 when after (no longer open to it).
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.map((r) => r.body.error?.code).filter(Boolean)).toEqual([expect.stringMatching(/^(CONFLICT|NOT_FOUND)$/)]);
    const winner = results.find((r) => r.status === 200)!.body.recipientStaffId;
    expect([a.id, b.id]).toContain(winner);
    expect((await t.as(w.manager).get(`${org}/shift-requests/${cover.id}`)).body).toMatchObject({ status: "PENDING_APPROVAL", recipientStaffId: winner });
  });
});
