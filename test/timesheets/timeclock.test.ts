import { TestService } from "../support/harness";
import { countStatements, planOf } from "../support/statements";
import { workplace, Workplace } from "../support/workplace";

describe("time clock and shift notes", () => {
  let t: TestService;
  let w: Workplace;
  let breakTypeId: string;
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-03-02T14:00:00.000Z" });
    w = await workplace(t);
    breakTypeId = (
      await t.as(w.org.token).post(`/api/organizations/${w.org.id}/locations/${w.locationId}/breaks`, { name: "Lunch", durationMinutes: 30, paid: false })
    ).body.id;
  });
  afterAll(() => t.stop());

  /** Moves the clock on and hands out a fresh worker token (tokens expire with the clock). */
  async function later(ms: number) {
    t.clock.advance(ms);
    w.workerToken = await t.token(w.org.apiKey, w.workerId);
    w.org.token = await t.token(w.org.apiKey);
    return t.as(w.workerToken);
  }

  it("clocks a worker in, through a break, and out, with 409 codes for steps out of order", async () => {
    let me = t.as(w.workerToken);
    expect((await me.get("/api/time-tracking/shift-state")).body).toEqual({ workerId: w.workerId, state: "CLOCKED_OUT", shift: null, currentBreak: null });
    expect((await me.post("/api/time-tracking/clock-out", {})).body.error.code).toBe("NOT_CLOCKED_IN");
    expect((await me.post("/api/time-tracking/breaks/start", { typeId: breakTypeId })).body.error.code).toBe("NOT_CLOCKED_IN");

    const unknownRole = await me.post("/api/time-tracking/clock-in", { locationId: w.locationId, roleId: "00000000-0000-4000-8000-000000000001" });
    expect([unknownRole.status, unknownRole.body.error.details]).toEqual([404, [expect.objectContaining({ field: "roleId" })]]);
    const badLocation = await me.post("/api/time-tracking/clock-in", { locationId: "nowhere", roleId: "neither" });
    expect([badLocation.status, badLocation.body.error.details]).toEqual([400, [expect.objectContaining({ field: "locationId" })]]);
    const statements = countStatements();
    const clockIn = await me.post("/api/time-tracking/clock-in", { locationId: w.locationId, roleId: w.roleId });
    const sql = statements.sql;
    statements.stop();
    expect(clockIn.status).toBe(201);
    // The location, the role and the worker's wage for it are one read.
    expect(sql.filter((q) => /LEFT JOIN locations l/.test(q) && /LEFT JOIN roles r/.test(q))).toHaveLength(1);
    expect(sql.filter((q) => /FROM (locations|roles) WHERE/.test(q))).toEqual([]);
    expect(clockIn.body).toMatchObject({
      employeeId: w.workerId,
      active: true,
      endTime: null,
      utcEndTime: null,
      startTime: "2026-03-02T09:00:00.000-05:00",
      hourlyWage: 20,
    });
    const again = await me.post("/api/time-tracking/clock-in", { workerId: w.workerId, locationId: w.locationId, roleId: w.roleId });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("ALREADY_CLOCKED_IN");
    expect((await me.post("/api/time-tracking/breaks/end", {})).body.error.code).toBe("NOT_ON_BREAK");

    me = await later(3 * 3600_000);
    const onBreak = await me.post("/api/time-tracking/breaks/start", { typeId: breakTypeId });
    expect(onBreak.status).toBe(200);
    expect((await me.post("/api/time-tracking/breaks/start", { typeId: breakTypeId })).body.error.code).toBe("ALREADY_ON_BREAK");
    me = await later(20 * 60_000);
    const state = await me.get("/api/time-tracking/shift-state");
    expect(state.body).toMatchObject({
      state: "ON_BREAK",
      currentBreak: { name: "Lunch", endTime: null, startTime: "2026-03-02T12:00:00.000-05:00" },
      shift: { duration: 200, totalUnpaidBreaks: 20, payableDuration: 180 },
    });
    me = await later(10 * 60_000);
    expect((await me.post("/api/time-tracking/breaks/end", {})).body.breaks[0].endTime).toBe("2026-03-02T12:30:00.000-05:00");
    expect((await me.get("/api/time-tracking/shift-state")).body.state).toBe("CLOCKED_IN");
    me = await later(90 * 60_000);
    const out = await me.post("/api/time-tracking/clock-out", {});
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ active: false, endTime: "2026-03-02T14:00:00.000-05:00", duration: 300, totalUnpaidBreaks: 30, payableDuration: 270 });
    expect((await me.get("/api/time-tracking/shift-state")).body.state).toBe("CLOCKED_OUT");
  });

  it("lets only managers give a corrected time or act for another worker", async () => {
    const me = await later(3 * 3600_000);
    const corrected = await me.post("/api/time-tracking/clock-in", { locationId: w.locationId, roleId: w.roleId, time: "2026-03-02T16:00:00" });
    expect(corrected.status).toBe(403);
    const manager = await t.staffWithToken(w.org, "Manager");
    const boss = t.as(manager.token);
    expect((await me.get(`/api/time-tracking/shift-state?workerId=${manager.staff.id}`)).status).toBe(403);
    const byBoss = await boss.post("/api/time-tracking/clock-in", {
      workerId: w.workerId,
      locationId: w.locationId,
      roleId: w.roleId,
      time: "2026-03-02T15:00:00",
    });
    expect(byBoss.status).toBe(201);
    expect(byBoss.body.startTime).toBe("2026-03-02T15:00:00.000-05:00");
    expect((await boss.post("/api/time-tracking/clock-out", { workerId: w.workerId, time: "2999-01-01T00:00:00Z" })).status).toBe(400);
    expect((await boss.post("/api/time-tracking/clock-out", { workerId: w.workerId, time: "2026-03-02T14:00:00" })).status).toBe(400);
    const out = await boss.post("/api/time-tracking/clock-out", { workerId: w.workerId, time: "2026-03-02T16:15:00" });
    expect(out.body).toMatchObject({ duration: 75, active: false });
    expect(
      (await boss.post("/api/time-tracking/clock-in", { workerId: "00000000-0000-4000-8000-000000000000", locationId: w.locationId, roleId: w.roleId })).status,
    ).toBe(404);
    const gql = await t.gql(w.workerToken, "{ shiftState { state shift { id } } }");
    expect(gql.data!.shiftState).toEqual({ state: "CLOCKED_OUT", shift: null });
  });

  it("keeps notes on a shift: workers on their own, authors edit their own, managers delete any", async () => {
    const shift = (
      await t.as(w.org.token).post("/api/timesheets", {
        employeeId: w.workerId,
        locationId: w.locationId,
        roleId: w.roleId,
        startTime: "2026-02-20T09:00:00",
        endTime: "2026-02-20T17:00:00",
      })
    ).body;
    const me = t.as(w.workerToken);
    const manager = await t.staffWithToken(w.org, "Manager");
    const boss = t.as(manager.token);
    const mine = await me.post(`/api/timesheets/${shift.id}/notes`, { text: "Covered for Sam" });
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ shiftId: shift.id, authorId: w.workerId, text: "Covered for Sam" });
    const bosses = (await boss.post(`/api/timesheets/${shift.id}/notes`, { text: "Approved" })).body;
    expect((await me.get(`/api/timesheets/${shift.id}/notes`)).body.map((n: { text: string }) => n.text)).toEqual(["Covered for Sam", "Approved"]);
    expect((await me.patch(`/api/timesheets/${shift.id}/notes/${mine.body.id}`, { text: "Covered for Sam (late)" })).body.text).toBe("Covered for Sam (late)");
    expect((await me.patch(`/api/timesheets/${shift.id}/notes/${bosses.id}`, { text: "hacked" })).status).toBe(403);
    expect((await me.delete(`/api/timesheets/${shift.id}/notes/${bosses.id}`)).status).toBe(403);
    expect((await boss.delete(`/api/timesheets/${shift.id}/notes/${mine.body.id}`)).status).toBe(204);
    expect((await me.post(`/api/timesheets/${shift.id}/notes`, { text: "" })).status).toBe(400);
    const colleague = await t.staffWithToken(w.org, "Worker");
    expect((await t.as(colleague.token).get(`/api/timesheets/${shift.id}/notes`)).status).toBe(404);
    expect((await t.as(colleague.token).post(`/api/timesheets/${shift.id}/notes`, { text: "mine now" })).status).toBe(404);
    const withNotes = await t.gql(w.org.token, `query ($id: ID!) { shift(id: $id) { notes { text authorId } } }`, { id: shift.id });
    expect(withNotes.data!.shift.notes).toEqual([{ text: "Approved", authorId: manager.staff.id }]);
  });

  it("finds a worker's open shift through the index of open shifts, however many shifts they worked before", async () => {
    const veteran = await t.staffWithToken(w.org, "Worker");
    const db = t.runtime.db;
    // A year of closed shifts, then the open one.
    await db.query(
      `INSERT INTO shifts (organization_id, employee_id, location_id, role_id, start_time, end_time, hourly_wage)
       SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, '2025-01-01T09:00:00Z'::timestamptz + d * interval '1 day', '2025-01-01T17:00:00Z'::timestamptz + d * interval '1 day', 20
         FROM generate_series(0, 299) d
       UNION ALL SELECT $1, $2, $3, $4, '2026-03-02T08:00:00Z', NULL, 20`,
      [w.org.id, veteran.staff.id, w.locationId, w.roleId],
    );
    await db.query("ANALYZE shifts");
    const statements = countStatements();
    const state = await t.as(veteran.token).get("/api/time-tracking/shift-state");
    const sql = statements.sql;
    statements.stop();
    expect(state.body.state).toBe("CLOCKED_IN");
    const lookup = sql.find((q) => /s\.employee_id = \$2 AND s\.end_time IS NULL/.test(q))!;
    const plan = await planOf(db, lookup, [w.org.id, veteran.staff.id]);
    expect(plan).toContain('"Index Name":"ix_shifts_open_by_employee"');
  });

  (process.env.TEST_DATABASE_URL ? it : it.skip)("lets exactly one of many simultaneous clock-ins or overlapping shifts through", async () => {
    const racer = await t.staffWithToken(w.org, "Worker");
    const boss = t.as(await t.token(w.org.apiKey));
    const clockIns = await Promise.all(
      Array.from({ length: 8 }, () => boss.post("/api/time-tracking/clock-in", { workerId: racer.staff.id, locationId: w.locationId, roleId: w.roleId })),
    );
    expect(clockIns.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(clockIns.filter((r) => r.status === 409).every((r) => r.body.error.code === "ALREADY_CLOCKED_IN")).toBe(true);
    const shifts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        boss.post("/api/timesheets", {
          employeeId: racer.staff.id,
          locationId: w.locationId,
          roleId: w.roleId,
          startTime: `2026-02-10T0${i % 3}:00:00`,
          endTime: "2026-02-10T09:00:00",
        }),
      ),
    );
    expect(shifts.filter((r) => r.status === 201)).toHaveLength(1);
    expect(shifts.filter((r) => r.status === 409)).toHaveLength(7);
  });
});
