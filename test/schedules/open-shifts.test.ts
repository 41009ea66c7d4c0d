import { addDays } from "../../src/common/time";
import { TestService } from "../support/harness";
import { countStatements } from "../support/statements";
import { fileTimeOff } from "../support/time-off";
import { scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";

describe("open shifts and their preferences", () => {
  let t: TestService;
  let w: ScheduleWorkplace;
  let day = 0;
  beforeAll(async () => {
    t = await TestService.start();
    w = await scheduleWorkplace(t);
  });
  afterAll(() => t.stop());

  /** A published open shift on its own day (so that tests do not overlap each other's entries). */
  async function openShift(fields: Record<string, unknown> = {}) {
    day += 1;
    const date = `2026-04-${String(day).padStart(2, "0")}`;
    const api = t.as(w.manager);
    const created = await api.post(`${w.base}/open-shifts`, {
      roleId: w.roleId,
      startDate: `${date}T09:00:00`,
      endDate: `${date}T17:00:00`,
      staffCountRequired: 2,
      breaks: [w.breakTypeId],
      ...fields,
    });
    expect(created.status).toBe(201);
    const published = await api.post(`${w.base}/schedules/publish`, { startDate: date, endDate: date });
    expect(published.body.openShiftIds).toEqual([created.body.id]);
    return { id: created.body.id as string, date, path: `${w.base}/open-shifts/${created.body.id}` };
  }

  it("creates a draft open shift with the spec's fields, hidden from workers until published", async () => {
    const ann = await w.worker();
    const api = t.as(w.manager);
    const created = await api.post(`${w.base}/open-shifts`, {
      roleId: w.roleId,
      startDate: "2026-05-04T09:00:00",
      endDate: "2026-05-04T17:00:00",
      staffCountRequired: 3,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      tenantId: w.org.id,
      organizationId: w.org.id,
      locationId: w.locationId,
      location: { externalId: "LOC-1" },
      roleId: w.roleId,
      roleName: "Cook",
      startDate: "2026-05-04T09:00:00.000-04:00",
      endDate: "2026-05-04T17:00:00.000-04:00",
      breaks: [],
      staffCountRequired: 3,
      requireApproval: true,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      preferences: [],
      draftPreferences: [],
      timezone: "America/New_York",
      utcOffset: -240,
      isDraft: true,
      isPublished: false,
      isFullyClaimed: false,
    });
    const id = created.body.id;
    // A manager notes a preference while the shift is a draft.
    const drafted = await api.post(`${w.base}/open-shifts/${id}/preferences`, { workerId: ann.id, preference: "AVAILABLE" });
    expect(drafted.status).toBe(201);
    expect(drafted.body).toMatchObject({
      status: "PENDING",
      isDraft: true,
      draft: { preference: "AVAILABLE", status: "PENDING" },
      worker: { id: ann.id, externalId: expect.any(String) },
    });
    expect((await api.post(`${w.base}/open-shifts/${id}/preferences/${drafted.body.id}/assign`)).status).toBe(409);

    const worker = t.as(ann.token);
    expect((await worker.get(`${w.base}/open-shifts/${id}`)).status).toBe(404);
    expect((await worker.get(`${w.base}/open-shifts?startDate=2026-05-01&endDate=2026-05-31`)).body).toEqual([]);
    expect((await worker.post(`${w.base}/open-shifts/${id}/claim`)).status).toBe(404);
    const listed = (await api.get(`${w.base}/open-shifts?startDate=2026-05-04&endDate=2026-05-04`)).body;
    expect(listed).toHaveLength(1);
    expect(listed[0].draftPreferences).toEqual([expect.objectContaining({ id: drafted.body.id, preference: "AVAILABLE" })]);
    expect(listed[0].draftPreferences[0]).not.toHaveProperty("isDraft");
    expect(listed[0].preferences).toEqual([]);

    await api.post(`${w.base}/schedules/publish`, { startDate: "2026-05-04", endDate: "2026-05-04" });
    const seen = await worker.get(`${w.base}/open-shifts?startDate=2026-05-04&endDate=2026-05-04`);
    expect(seen.body).toHaveLength(1);
    expect(seen.body[0]).toMatchObject({
      isDraft: false,
      isPublished: true,
      draftPreferences: [],
      preferences: [{ id: drafted.body.id, isDraft: false, draft: null }],
    });
  });

  it("claims without approval at once: ACCEPTED with a schedule entry, until the shift is full", async () => {
    const shift = await openShift({ requireApproval: false });
    const [ann, bob, cy] = [await w.worker(), await w.worker(), await w.worker()];
    const statements = countStatements();
    const claim = await t.as(ann.token).post(`${shift.path}/claim`);
    const sql = statements.sql;
    statements.stop();
    expect(claim.status).toBe(200);
    // The worker's eligibility is read once, in the location's zone as the claim read it; the new entry has no breaks to delete.
    expect(sql.filter((q) => /FROM q JOIN staff_members s/.test(q))).toHaveLength(1);
    expect(sql.filter((q) => /SELECT timezone FROM locations/.test(q))).toEqual([]);
    expect(sql.filter((q) => /DELETE FROM "?schedule_breaks/.test(q))).toEqual([]);
    expect(claim.body).toMatchObject({
      openShiftId: shift.id,
      workerId: ann.id,
      preference: "PREFERRED",
      status: "ACCEPTED",
      isDraft: false,
      scheduleShiftId: expect.any(String),
    });
    const entry = await t.as(ann.token).get(`${w.base}/schedules/${claim.body.scheduleShiftId}`);
    expect(entry.body).toMatchObject({
      workerId: ann.id,
      roleId: w.roleId,
      openShiftId: shift.id,
      startTime: `${shift.date}T09:00:00.000-04:00`,
      breaks: [{ typeId: w.breakTypeId }],
    });
    expect((await t.as(ann.token).post(`${shift.path}/claim`)).status).toBe(409);
    expect((await t.as(ann.token).post(`${shift.path}/retract`)).status).toBe(409);
    expect((await t.as(bob.token).post(`${shift.path}/claim`)).body.status).toBe("ACCEPTED");
    const third = await t.as(cy.token).post(`${shift.path}/claim`);
    expect(third.status).toBe(409);
    expect(third.body.error.code).toBe("OPEN_SHIFT_FULL");
    const state = (await t.as(w.manager).get(shift.path)).body;
    expect(state).toMatchObject({ isFullyClaimed: true });
    expect(state.preferences.map((p: { workerId: string }) => p.workerId).sort()).toEqual([ann.id, bob.id].sort());
    // A worker sees only their own preference.
    expect((await t.as(ann.token).get(shift.path)).body.preferences.map((p: { workerId: string }) => p.workerId)).toEqual([ann.id]);
  });

  it("walks every preference transition and refuses the others", async () => {
    const shift = await openShift();
    const [ann, bob, cy, dee] = [await w.worker(), await w.worker(), await w.worker(), await w.worker()];
    const api = t.as(w.manager);
    const prefPath = (id: string, suffix = "") => `${shift.path}/preferences/${id}${suffix}`;

    // claim → PENDING → retract (RETRACTED) → claim again reopens it → accept (ACCEPTED) → remove (REMOVED, entry gone)
    const claim = await t.as(ann.token).post(`${shift.path}/claim`, { preference: "AVAILABLE" });
    expect(claim.body).toMatchObject({ status: "PENDING", preference: "AVAILABLE", scheduleShiftId: null });
    expect((await t.as(ann.token).post(`${shift.path}/retract`)).body.status).toBe("RETRACTED");
    expect((await t.as(ann.token).post(`${shift.path}/retract`)).status).toBe(409);
    const again = await t.as(ann.token).post(`${shift.path}/claim`);
    expect(again.body).toMatchObject({ id: claim.body.id, status: "PENDING", preference: "PREFERRED" });
    expect((await t.as(ann.token).patch(prefPath(claim.body.id), { preference: "AVAILABLE" })).body.preference).toBe("AVAILABLE");
    const accepted = await api.post(prefPath(claim.body.id, "/assign"));
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: "ACCEPTED", scheduleShiftId: expect.any(String) });
    expect((await api.post(prefPath(claim.body.id, "/assign"))).status).toBe(409);
    expect((await t.as(ann.token).patch(prefPath(claim.body.id), { preference: "PREFERRED" })).status).toBe(409);
    expect((await t.as(ann.token).post(prefPath(claim.body.id, "/retract"))).status).toBe(409);
    const removed = await api.patch(prefPath(claim.body.id, "/remove"));
    expect(removed.body).toMatchObject({ status: "REMOVED" });
    expect((await api.get(`${w.base}/schedules/${accepted.body.scheduleShiftId}`)).status).toBe(404);
    expect((await api.get(shift.path)).body.isFullyClaimed).toBe(false);
    expect((await api.patch(prefPath(claim.body.id, "/remove"))).status).toBe(409);
    expect((await t.as(ann.token).post(`${shift.path}/claim`)).status).toBe(409);

    // create preference → decline (DECLINED), then nothing more
    const bobs = await t.as(bob.token).post(`${shift.path}/preferences`, { preference: "PREFERRED" });
    expect(bobs.status).toBe(201);
    expect((await t.as(bob.token).post(`${shift.path}/preferences`, { preference: "AVAILABLE" })).status).toBe(409);
    expect((await t.as(bob.token).post(prefPath(bobs.body.id, "/decline"))).status).toBe(403);
    expect((await api.post(prefPath(bobs.body.id, "/decline"))).body.status).toBe("DECLINED");
    for (const [method, suffix] of [
      ["post", "/assign"],
      ["post", "/decline"],
      ["post", "/retract"],
      ["patch", "/remove"],
    ] as const) {
      expect((await api[method](prefPath(bobs.body.id, suffix))).status).toBe(409);
    }

    // UNAVAILABLE cannot be accepted; a pending preference can be removed; a worker retracts their own only
    const cys = await t.as(cy.token).post(`${shift.path}/preferences`, { preference: "UNAVAILABLE" });
    expect((await api.post(prefPath(cys.body.id, "/assign"))).status).toBe(409);
    expect((await t.as(dee.token).post(prefPath(cys.body.id, "/retract"))).status).toBe(404);
    expect((await t.as(dee.token).patch(prefPath(cys.body.id), { preference: "PREFERRED" })).status).toBe(404);
    expect((await t.as(cy.token).post(prefPath(cys.body.id, "/retract"))).body.status).toBe("RETRACTED");
    const dees = await api.post(`${shift.path}/preferences`, { workerId: dee.id, preference: "PREFERRED" });
    expect((await api.patch(prefPath(dees.body.id, "/remove"))).body.status).toBe("REMOVED");
    expect((await t.as(cy.token).post(`${shift.path}/claim`, { preference: "UNAVAILABLE" })).status).toBe(400);
    expect((await t.as(cy.token).post(`${shift.path}/claim`, { workerId: dee.id })).status).toBe(403);
    expect((await api.patch(prefPath(dees.body.id), { preference: "MAYBE" })).status).toBe(400);
  });

  it("accepts only eligible, free workers", async () => {
    const shift = await openShift();
    const api = t.as(w.manager);
    const elsewhere = (await t.as(w.org.token).post(`/api/organizations/${w.org.id}/locations`, { name: "Annex", timezone: "America/New_York" })).body;
    const outsider = await w.worker({ locationIds: [elsewhere.id] });
    const roleless = await w.worker({ roleIds: [] });
    for (const who of [outsider, roleless]) {
      const res = await t.as(who.token).post(`${shift.path}/claim`);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("NOT_ELIGIBLE");
    }
    // Claimed while free, busy by the time a manager assigns: the assignment checks again.
    const busy = await w.worker();
    const pending = (await t.as(busy.token).post(`${shift.path}/claim`)).body;
    await api.post(`${w.base}/schedules`, { workerId: busy.id, roleId: w.roleId, startTime: `${shift.date}T15:00:00`, endTime: `${shift.date}T20:00:00` });
    expect((await t.as(busy.token).post(`${shift.path}/claim`)).status).toBe(409);
    const overlap = await api.post(`${shift.path}/preferences/${pending.id}/assign`);
    expect(overlap.status).toBe(409);
    expect(overlap.body.error.message).toMatch(/overlaps/);
    const away = await w.worker();
    const awayPref = (await t.as(away.token).post(`${shift.path}/claim`)).body;
    await fileTimeOff(t, w.org, away.id, `${shift.date}T04:00:00Z`, `${addDays(shift.date, 1)}T04:00:00Z`, "approved");
    const onLeave = await api.post(`${shift.path}/preferences/${awayPref.id}/assign`);
    expect(onLeave.status).toBe(409);
    expect(onLeave.body.error.message).toMatch(/time off/);
    expect((await api.get(shift.path)).body.preferences.every((p: { status: string }) => p.status === "PENDING")).toBe(true);
  });

  it("bulk assigns with one result per preference; one refusal does not undo the others", async () => {
    const shift = await openShift({ staffCountRequired: 2 });
    const workers = [await w.worker(), await w.worker(), await w.worker()];
    const prefs = [];
    for (const x of workers) prefs.push((await t.as(x.token).post(`${shift.path}/claim`)).body.id);
    const res = await t
      .as(w.manager)
      .post(`${w.base}/open-shifts/preferences/bulk-assign`, { preferenceIds: [...prefs, "00000000-0000-4000-8000-000000000000"] });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { ok: boolean; error: { code: string } | null }) => (r.ok ? "ok" : r.error!.code))).toEqual([
      "ok",
      "ok",
      "OPEN_SHIFT_FULL",
      "NOT_FOUND",
    ]);
    expect(res.body.results[0].preference).toMatchObject({ status: "ACCEPTED", scheduleShiftId: expect.any(String) });
    expect(
      (await t.as(w.manager).get(`${w.base}/schedules?startDate=${shift.date}&endDate=${shift.date}`)).body.filter(
        (e: { openShiftId: string }) => e.openShiftId === shift.id,
      ),
    ).toHaveLength(2);
    expect((await t.as(w.manager).post(`${w.base}/open-shifts/preferences/bulk-assign`, { preferenceIds: [] })).status).toBe(400);
  });

  it("updates and removes open shifts, guarding accepted workers' places", async () => {
    const shift = await openShift({ requireApproval: false, staffCountRequired: 3 });
    const api = t.as(w.manager);
    const ann = await w.worker();
    await t.as(ann.token).post(`${shift.path}/claim`);
    expect((await api.patch(shift.path, { staffCountRequired: 1 })).body).toMatchObject({ staffCountRequired: 1, isFullyClaimed: true });
    expect((await api.patch(shift.path, { staffCountRequired: 0 })).status).toBe(400);
    expect((await api.patch(shift.path, { startDate: `${shift.date}T08:00:00` })).status).toBe(409);
    expect((await api.patch(shift.path, { requireApproval: true, note: "bring boots" })).status).toBe(200);
    const other = await openShift();
    expect((await api.patch(other.path, { endDate: `${other.date}T08:00:00` })).status).toBe(400);
    expect((await api.patch(other.path, { startDate: `${other.date}T10:00:00-04:00` })).body.startDate).toBe(`${other.date}T10:00:00.000-04:00`);
    expect((await api.delete(shift.path)).status).toBe(204);
    expect((await api.get(shift.path)).status).toBe(404);
    const entries = (await api.get(`${w.base}/schedules?workerId=${ann.id}`)).body;
    expect(entries).toEqual([expect.objectContaining({ openShiftId: null })]);
  });

  it("keeps open-shift management to managers and hides other organizations' ids", async () => {
    const shift = await openShift();
    const ann = await w.worker();
    const pref = (await t.as(ann.token).post(`${shift.path}/claim`)).body;
    const worker = t.as(ann.token);
    const forbidden = [
      await worker.post(`${w.base}/open-shifts`, { roleId: w.roleId, startDate: "2026-06-01T09:00:00", endDate: "2026-06-01T17:00:00", staffCountRequired: 1 }),
      await worker.patch(shift.path, { staffCountRequired: 5 }),
      await worker.delete(shift.path),
      await worker.post(`${shift.path}/preferences/${pref.id}/assign`),
      await worker.patch(`${shift.path}/preferences/${pref.id}/remove`),
      await worker.post(`${w.base}/open-shifts/preferences/bulk-assign`, { preferenceIds: [pref.id] }),
    ];
    expect(forbidden.map((r) => r.status)).toEqual(forbidden.map(() => 403));

    const other = await scheduleWorkplace(t, "Elsewhere");
    const them = t.as(other.manager);
    const theirPath = `${other.base}/open-shifts/${shift.id}`;
    const hidden = [
      await them.get(theirPath),
      await them.patch(theirPath, { staffCountRequired: 5 }),
      await them.delete(theirPath),
      await them.post(`${theirPath}/claim`, { workerId: ann.id }),
      await them.post(`${theirPath}/preferences/${pref.id}/assign`),
      await them.get(`/api/organizations/${other.org.id}/locations/${w.locationId}/open-shifts`),
    ];
    expect(hidden.map((r) => r.status)).toEqual(hidden.map(() => 404));
    const bulk = await them.post(`${other.base}/open-shifts/preferences/bulk-assign`, { preferenceIds: [pref.id] });
    expect(bulk.body.results[0]).toMatchObject({ ok: false, error: { code: "NOT_FOUND", status: 404 } });
  });

  it("serves the same through GraphQL, with preferences' workers from loaders", async () => {
    const shift = await openShift({ staffCountRequired: 5 });
    const query = `query($loc: ID!, $s: String, $e: String) { openShifts(locationId: $loc, startDate: $s, endDate: $e) { nodes { id roleName preferences { status worker { id externalId name } } } } }`;
    /** The answer, and how many SQL statements it took. */
    const read = async () => {
      const counter = countStatements();
      try {
        const res = await t.gql(w.manager, query, { loc: w.locationId, s: shift.date, e: shift.date });
        expect(res.errors).toBeUndefined();
        return { nodes: res.data?.openShifts.nodes, statements: counter.count };
      } finally {
        counter.stop();
      }
    };
    const ann = await w.worker();
    await t.as(ann.token).post(`${shift.path}/claim`);
    const one = await read();
    expect(one.nodes).toEqual([
      {
        id: shift.id,
        roleName: "Cook",
        preferences: [{ status: "PENDING", worker: { id: ann.id, externalId: expect.any(String), name: expect.any(String) } }],
      },
    ]);
    // Three more workers claim: their workers come in the same statements, not one more each.
    for (let i = 0; i < 3; i++) await t.as((await w.worker()).token).post(`${shift.path}/claim`);
    const four = await read();
    expect(four.nodes[0].preferences).toHaveLength(4);
    expect(new Set(four.nodes[0].preferences.map((p: { worker: { id: string } }) => p.worker.id)).size).toBe(4);
    expect(four.statements).toBe(one.statements);
  });
});
