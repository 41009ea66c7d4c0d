import { TestService } from "../support/harness";
import { addLocation, addWorker, workplace, Workplace } from "../support/workplace";

describe("break types and shifts", () => {
  let t: TestService;
  let w: Workplace;
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-04-15T12:00:00.000Z" });
    w = await workplace(t);
  });
  afterAll(() => t.stop());

  const api = () => t.as(w.org.token);
  const breaksPath = (locationId = w.locationId) => `/api/organizations/${w.org.id}/locations/${locationId}/breaks`;
  const shift = (fields: Record<string, unknown>) =>
    api().post("/api/timesheets", { employeeId: w.workerId, locationId: w.locationId, roleId: w.roleId, ...fields });

  it("creates, lists, changes and soft-deletes break types of a location", async () => {
    const created = await api().post(breaksPath(), { name: "Lunch", durationMinutes: 30, frequencyMinutes: 300, paid: false, mandatory: true, enabled: true });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: "Lunch",
      locationId: w.locationId,
      durationMinutes: 30,
      frequencyMinutes: 300,
      paid: false,
      mandatory: true,
      active: true,
      enabled: true,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
      deletedAt: null,
    });
    const id = created.body.id;
    expect((await api().patch(`${breaksPath()}/${id}`, { enabled: false, durationMinutes: 45 })).body).toMatchObject({
      enabled: false,
      durationMinutes: 45,
      active: true,
    });
    expect((await api().get(breaksPath())).body.map((b: { id: string }) => b.id)).toEqual([id]);
    expect((await api().delete(`${breaksPath()}/${id}`)).status).toBe(204);
    expect((await api().get(breaksPath())).body).toEqual([]);
    const all = await api().get(`${breaksPath()}?includeDeleted=true`);
    expect(all.body[0]).toMatchObject({ id, active: false, deletedAt: expect.any(String) });
    expect((await api().patch(`${breaksPath()}/${id}`, { name: "x" })).status).toBe(404);
  });

  it("refuses bad break types with 400 and unknown locations with 404", async () => {
    for (const body of [
      { durationMinutes: 30 },
      { name: "A", durationMinutes: 0 },
      { name: "A", durationMinutes: "30" },
      { name: "A", durationMinutes: 30, colour: "red" },
      { name: "A", durationMinutes: 30, locationId: w.locationId },
    ]) {
      const res = await api().post(breaksPath(), body);
      expect(res.status).toBe(400);
    }
    expect((await api().post(breaksPath("00000000-0000-4000-8000-000000000000"), { name: "A", durationMinutes: 10 })).status).toBe(404);
    expect((await t.as(w.workerToken).post(breaksPath(), { name: "A", durationMinutes: 10 })).status).toBe(403);
    expect((await t.as(w.workerToken).get(breaksPath())).status).toBe(200);
  });

  it("computes a shift across the spring daylight-saving change in Berlin: 22:00–06:00 is 420 minutes", async () => {
    const berlin = await workplace(t, "Europe/Berlin");
    const res = await t.as(berlin.org.token).post("/api/timesheets", {
      employeeId: berlin.workerId,
      locationId: berlin.locationId,
      roleId: berlin.roleId,
      startTime: "2026-03-28T22:00:00",
      endTime: "2026-03-29T06:00:00",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      startTime: "2026-03-28T22:00:00.000+01:00",
      endTime: "2026-03-29T06:00:00.000+02:00",
      utcStartTime: "2026-03-28T21:00:00.000Z",
      utcEndTime: "2026-03-29T04:00:00.000Z",
      utcOffset: 60,
      duration: 420,
      payableDuration: 420,
      hourlyWage: 20,
      active: false,
      locked: false,
      deletedAt: null,
    });
  });

  it("answers a shift with every field of the specification, across midnight, listed on its start day", async () => {
    const res = await shift({ startTime: "2026-03-02T20:00:00-05:00", endTime: "2026-03-03T04:00:00-05:00" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        "id",
        "employeeId",
        "locationId",
        "roleId",
        "startTime",
        "endTime",
        "breaks",
        "hourlyWage",
        "totalPaidBreaks",
        "totalUnpaidBreaks",
        "duration",
        "payableDuration",
        "utcOffset",
        "utcStartTime",
        "utcEndTime",
        "locked",
        "active",
        "createdAt",
        "updatedAt",
        "deletedAt",
      ].sort(),
    );
    expect(res.body).toMatchObject({
      duration: 480,
      utcOffset: -300,
      startTime: "2026-03-02T20:00:00.000-05:00",
      endTime: "2026-03-03T04:00:00.000-05:00",
      utcEndTime: "2026-03-03T09:00:00.000Z",
    });
    const onStartDay = await api().get("/api/timesheets?startDate=2026-03-02&endDate=2026-03-02");
    expect(onStartDay.body.shifts.map((s: { id: string }) => s.id)).toEqual([res.body.id]);
    expect(onStartDay.body.totals).toEqual({ duration: 480, totalPaidBreaks: 0, totalUnpaidBreaks: 0 });
    const nextDay = await api().get("/api/timesheets?startDate=2026-03-03&endDate=2026-03-03");
    expect(nextDay.body).toEqual({ shifts: [], lockedDays: [], totals: { duration: 0, totalPaidBreaks: 0, totalUnpaidBreaks: 0 } });
  });

  it("gives a location in Asia/Kolkata a utcOffset of 330", async () => {
    const kolkata = await addLocation(t, w.org, "Asia/Kolkata");
    const res = await api().post("/api/timesheets", {
      employeeId: w.workerId,
      locationId: kolkata,
      roleId: w.roleId,
      startTime: "2026-03-10T09:00:00",
      endTime: "2026-03-10T17:30:00",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ utcOffset: 330, startTime: "2026-03-10T09:00:00.000+05:30", utcStartTime: "2026-03-10T03:30:00.000Z", duration: 510 });
  });

  it("takes breaks from their type, refuses breaks outside the shift or overlapping, and clips breaks to a shortened shift", async () => {
    const lunch = (await api().post(breaksPath(), { name: "Meal", durationMinutes: 30, paid: false, mandatory: true, frequencyMinutes: 360 })).body;
    const rest = (await api().post(breaksPath(), { name: "Rest", durationMinutes: 10, paid: true })).body;
    const created = (await shift({ startTime: "2026-03-04T09:00:00", endTime: "2026-03-04T17:00:00" })).body;
    const patched = await api().patch(`/api/timesheets/${created.id}`, {
      breaks: [
        { startTime: "2026-03-04T16:30:00", endTime: "2026-03-04T17:00:00", typeId: lunch.id },
        { startTime: "2026-03-04T10:00:00", endTime: "2026-03-04T10:10:00", typeId: rest.id },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ duration: 480, totalPaidBreaks: 10, totalUnpaidBreaks: 30, payableDuration: 450 });
    expect(patched.body.breaks).toEqual([
      {
        startTime: "2026-03-04T10:00:00.000-05:00",
        endTime: "2026-03-04T10:10:00.000-05:00",
        typeId: rest.id,
        paid: true,
        name: "Rest",
        mandatory: false,
        frequencyMinutes: 0,
        durationInSettingsMinutes: 10,
      },
      {
        startTime: "2026-03-04T16:30:00.000-05:00",
        endTime: "2026-03-04T17:00:00.000-05:00",
        typeId: lunch.id,
        paid: false,
        name: "Meal",
        mandatory: true,
        frequencyMinutes: 360,
        durationInSettingsMinutes: 30,
      },
    ]);

    const bad = [
      [{ startTime: "2026-03-04T08:30:00", endTime: "2026-03-04T09:30:00" }],
      [{ startTime: "2026-03-04T12:00:00", endTime: "2026-03-04T11:00:00" }],
      [
        { startTime: "2026-03-04T12:00:00", endTime: "2026-03-04T12:30:00" },
        { startTime: "2026-03-04T12:15:00", endTime: "2026-03-04T12:45:00" },
      ],
      [{ startTime: "not a time", endTime: "2026-03-04T12:30:00" }],
      [{ startTime: "2026-03-04T12:00:00" }],
    ];
    for (const breaks of bad) {
      const res = await api().patch(`/api/timesheets/${created.id}`, { breaks });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toMatch(/^breaks\.\d\./);
    }
    // A break type that exists nowhere, or only at another location, is not one of the shift's: 404 naming the field.
    const elsewhere = await addLocation(t, w.org, "America/Chicago");
    const otherType = (await api().post(breaksPath(elsewhere), { name: "Other", durationMinutes: 15 })).body;
    for (const typeId of ["00000000-0000-4000-8000-000000000000", otherType.id]) {
      const res = await api().patch(`/api/timesheets/${created.id}`, {
        breaks: [{ startTime: "2026-03-04T12:00:00", endTime: "2026-03-04T12:15:00", typeId }],
      });
      expect([res.status, res.body.error.code, res.body.error.details[0].field]).toEqual([404, "NOT_FOUND", "breaks.0.typeId"]);
    }

    const shortened = await api().patch(`/api/timesheets/${created.id}`, { endTime: "2026-03-04T16:45:00" });
    expect(shortened.status).toBe(200);
    expect(shortened.body).toMatchObject({ duration: 465, totalUnpaidBreaks: 15, totalPaidBreaks: 10, payableDuration: 450 });
  });

  it("answers 404 for unknown shifts and roles and 400 for bad changes", async () => {
    expect((await api().patch("/api/timesheets/00000000-0000-4000-8000-000000000000", { endTime: "2026-03-04T17:00:00" })).status).toBe(404);
    expect((await api().patch("/api/timesheets/nope", { endTime: "2026-03-04T17:00:00" })).status).toBe(404);
    expect((await api().get("/api/timesheets/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const created = (await shift({ startTime: "2026-03-05T09:00:00", endTime: "2026-03-05T17:00:00" })).body;
    for (const body of [
      { endTime: "2026-03-05T08:00:00" },
      { endTime: "yesterday" },
      { endTime: null },
      { duration: 5 },
      { hourlyWage: -1 },
      { roleId: "nope" },
    ]) {
      expect((await api().patch(`/api/timesheets/${created.id}`, body)).status).toBe(400);
    }
    const unknownRole = await api().patch(`/api/timesheets/${created.id}`, { roleId: "00000000-0000-4000-8000-000000000000" });
    expect([unknownRole.status, unknownRole.body.error.code, unknownRole.body.error.details[0].field]).toEqual([404, "NOT_FOUND", "roleId"]);
    const changed = await api().patch(`/api/timesheets/${created.id}`, { hourlyWage: 25.5, startTime: "2026-03-05T08:00:00" });
    expect(changed.body).toMatchObject({ hourlyWage: 25.5, duration: 540, startTime: "2026-03-05T08:00:00.000-05:00" });
  });

  it("validates the list's dates", async () => {
    for (const query of [
      "",
      "?startDate=2026-03-01",
      "?startDate=2026-03-10&endDate=2026-03-01",
      "?startDate=2026-13-01&endDate=2026-13-02",
      "?startDate=2026-01-01&endDate=2027-01-02",
      "?startDate=2026-01-01&endDate=2026-01-02&employeeId=x",
      "?startDate=2026-01-01&endDate=2026-01-02&sort=asc",
    ]) {
      const res = await api().get(`/api/timesheets${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_FAILED");
    }
    expect((await api().get("/api/timesheets?startDate=2026-01-01&endDate=2027-01-01")).status).toBe(200);
  });

  it("says what is wrong with a date or time in the caller's terms, and names a field missing from a GraphQL literal", async () => {
    const reason = async (res: Promise<{ body: { error: { details: { field: string; message: string }[] } } }>) => (await res).body.error.details[0];
    expect(await reason(api().get("/api/timesheets?startDate=2026-02-30&endDate=2026-03-01"))).toEqual({
      field: "startDate",
      message: "startDate: 2026-02-30 is not a date: February 2026 has 28 days",
    });
    expect(await reason(api().get("/api/timesheets?startDate=2026-13-01&endDate=2026-13-02"))).toEqual({
      field: "startDate",
      message: "startDate: 2026-13-01 is not a date: there is no month 13 (01 to 12)",
    });
    expect(await reason(api().get("/api/timesheets?startDate=March&endDate=2026-03-02"))).toEqual({
      field: "startDate",
      message: "startDate must be a date in the form YYYY-MM-DD",
    });
    expect(await reason(shift({ startTime: "2028-02-30T09:00:00", endTime: "2028-03-01T17:00:00" }))).toEqual({
      field: "startTime",
      message: "startTime: 2028-02-30 is not a date: February 2028 has 29 days",
    });
    expect(await reason(shift({ startTime: "2026-03-02T24:30:00", endTime: "2026-03-03T17:00:00" }))).toEqual({
      field: "startTime",
      message: "startTime: 24:30:00 is not a time of day (00:00 to 23:59:59)",
    });

    const literal = await t.gql(
      w.org.token,
      `mutation { createShift(input: { locationId: "${w.locationId}", roleId: "${w.roleId}", startTime: "2026-03-02T09:00:00" }) { id } }`,
    );
    expect(literal.errors?.[0]).toMatchObject({
      extensions: { code: "VALIDATION_FAILED", details: [{ field: "employeeId", message: 'Field "employeeId" of required type "ID!" was not provided.' }] },
    });
    const variables = await t.gql(w.org.token, "mutation($input: CreateShiftInput!) { createShift(input: $input) { id } }", {
      input: { locationId: w.locationId, roleId: w.roleId, startTime: "2026-03-02T09:00:00" },
    });
    expect(variables.errors?.[0].extensions).toMatchObject({ code: "VALIDATION_FAILED", details: [{ field: "employeeId" }] });
  });

  it("refuses overlapping shifts of one worker with 409, but not of two workers", async () => {
    expect((await shift({ startTime: "2026-03-06T09:00:00", endTime: "2026-03-06T17:00:00" })).status).toBe(201);
    const overlap = await shift({ startTime: "2026-03-06T16:00:00", endTime: "2026-03-06T20:00:00" });
    expect(overlap.status).toBe(409);
    expect(overlap.body.error.message).toMatch(/overlaps/);
    // The shift in the way in local time, as every shift field is.
    expect(overlap.body.error.details).toEqual(
      expect.arrayContaining([
        { field: "conflictingShift.startTime", message: "2026-03-06T09:00:00.000-05:00" },
        { field: "conflictingShift.endTime", message: "2026-03-06T17:00:00.000-05:00" },
      ]),
    );
    expect((await shift({ startTime: "2026-03-06T17:00:00", endTime: "2026-03-06T20:00:00" })).status).toBe(201);
    const other = await addWorker(t, w.org);
    expect(
      (
        await api().post("/api/timesheets", {
          employeeId: other.staff.id,
          locationId: w.locationId,
          roleId: w.roleId,
          startTime: "2026-03-06T09:00:00",
          endTime: "2026-03-06T17:00:00",
        })
      ).status,
    ).toBe(201);
  });

  it("soft-deletes: the shift leaves lists and totals but can still be read", async () => {
    const a = (await shift({ startTime: "2026-03-09T09:00:00", endTime: "2026-03-09T12:00:00" })).body;
    const b = (await shift({ startTime: "2026-03-09T13:00:00", endTime: "2026-03-09T15:00:00" })).body;
    const before = await api().get("/api/timesheets?startDate=2026-03-09&endDate=2026-03-09");
    expect(before.body.totals.duration).toBe(300);
    expect((await api().delete(`/api/timesheets/${a.id}`)).status).toBe(204);
    const after = await api().get("/api/timesheets?startDate=2026-03-09&endDate=2026-03-09");
    expect(after.body.shifts.map((s: { id: string }) => s.id)).toEqual([b.id]);
    expect(after.body.totals.duration).toBe(120);
    const read = await api().get(`/api/timesheets/${a.id}`);
    expect(read.body.deletedAt).toEqual(expect.stringMatching(/Z$/));
    expect((await api().delete(`/api/timesheets/${a.id}`)).status).toBe(404);
    expect((await api().patch(`/api/timesheets/${a.id}`, { hourlyWage: 1 })).status).toBe(404);
    // The deleted shift no longer blocks its time.
    expect((await shift({ startTime: "2026-03-09T09:00:00", endTime: "2026-03-09T12:00:00" })).status).toBe(201);
  });

  it("locks days: locked shifts refuse change and deletion with SHIFT_LOCKED until unlocked", async () => {
    const s = (await shift({ startTime: "2026-03-11T22:00:00", endTime: "2026-03-12T02:00:00" })).body;
    const lock = await api().post("/api/timesheets/locks", { locationId: w.locationId, date: "2026-03-11" });
    expect(lock.status).toBe(200);
    expect(lock.body).toEqual({ locationId: w.locationId, date: "2026-03-11", locked: true });
    const list = await api().get(`/api/timesheets?startDate=2026-03-10&endDate=2026-03-12&locationId=${w.locationId}`);
    expect(list.body.lockedDays).toEqual(["2026-03-11"]);
    expect(list.body.shifts.find((x: { id: string }) => x.id === s.id).locked).toBe(true);
    for (const res of [
      await api().patch(`/api/timesheets/${s.id}`, { hourlyWage: 30 }),
      await api().delete(`/api/timesheets/${s.id}`),
      await api().delete(`/api/timesheets?date=2026-03-11&locationId=${w.locationId}`),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("SHIFT_LOCKED");
    }
    // Moving a shift onto a locked day, or creating one there, is refused too.
    const other = (await shift({ startTime: "2026-03-12T09:00:00", endTime: "2026-03-12T10:00:00" })).body;
    expect((await api().patch(`/api/timesheets/${other.id}`, { startTime: "2026-03-11T09:00:00", endTime: "2026-03-11T10:00:00" })).body.error.code).toBe(
      "SHIFT_LOCKED",
    );
    expect((await shift({ startTime: "2026-03-11T08:00:00", endTime: "2026-03-11T09:00:00" })).body.error.code).toBe("SHIFT_LOCKED");
    expect((await api().get(`/api/timesheets/${s.id}`)).body.hourlyWage).toBe(20);

    const unlock = await t.http
      .delete("/api/timesheets/locks")
      .set("Authorization", `Bearer ${w.org.token}`)
      .send({ locationId: w.locationId, date: "2026-03-11" });
    expect(unlock.body).toEqual({ locationId: w.locationId, date: "2026-03-11", locked: false });
    expect((await api().patch(`/api/timesheets/${s.id}`, { hourlyWage: 30 })).body).toMatchObject({ hourlyWage: 30, locked: false });
    expect((await api().post("/api/timesheets/locks", { locationId: w.locationId, date: "2026-02-30" })).status).toBe(400);
    expect((await t.as(w.workerToken).post("/api/timesheets/locks", { locationId: w.locationId, date: "2026-03-11" })).status).toBe(403);
  });

  it("deletes every shift of a date, and nothing when one of them is locked", async () => {
    const second = await workplace(t, "America/Denver");
    const a2 = t.as(second.org.token);
    const other = await addWorker(t, second.org);
    const mk = (employeeId: string, startTime: string, endTime: string) =>
      a2.post("/api/timesheets", { employeeId, locationId: second.locationId, roleId: second.roleId, startTime, endTime });
    await mk(second.workerId, "2026-03-16T09:00:00", "2026-03-16T12:00:00");
    await mk(other.staff.id, "2026-03-16T23:00:00", "2026-03-17T03:00:00");
    const kept = (await mk(second.workerId, "2026-03-17T09:00:00", "2026-03-17T12:00:00")).body;
    await a2.post("/api/timesheets/locks", { locationId: second.locationId, date: "2026-03-16" });
    const refused = await a2.delete("/api/timesheets?date=2026-03-16");
    expect(refused.status).toBe(409);
    expect((await a2.get("/api/timesheets?startDate=2026-03-16&endDate=2026-03-16")).body.shifts).toHaveLength(2);
    await t.http.delete("/api/timesheets/locks").set("Authorization", `Bearer ${second.org.token}`).send({ locationId: second.locationId, date: "2026-03-16" });
    const done = await a2.delete(`/api/timesheets?date=2026-03-16&locationId=${second.locationId}`);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ deleted: 2 });
    expect((await a2.get("/api/timesheets?startDate=2026-03-16&endDate=2026-03-17")).body.shifts.map((s: { id: string }) => s.id)).toEqual([kept.id]);
    expect((await a2.delete("/api/timesheets?date=16.03.2026")).status).toBe(400);
    expect((await a2.delete("/api/timesheets")).status).toBe(400);
  });

  it("answers the number of shifts it deleted on a date, whatever the number", async () => {
    const third = await workplace(t, "America/Chicago");
    const a3 = t.as(third.org.token);
    const others = [await addWorker(t, third.org), await addWorker(t, third.org)];
    const mk = (employeeId: string, day: string) =>
      a3.post("/api/timesheets", {
        employeeId,
        locationId: third.locationId,
        roleId: third.roleId,
        startTime: `2026-03-${day}T09:00:00`,
        endTime: `2026-03-${day}T12:00:00`,
      });
    for (const employeeId of [third.workerId, ...others.map((o) => o.staff.id)]) expect((await mk(employeeId, "23")).status).toBe(201);
    expect((await mk(third.workerId, "24")).status).toBe(201);
    expect((await a3.delete("/api/timesheets?date=2026-03-23")).body).toEqual({ deleted: 3 });
    expect((await a3.delete("/api/timesheets?date=2026-03-24")).body).toEqual({ deleted: 1 });
    expect((await a3.delete("/api/timesheets?date=2026-03-24")).body).toEqual({ deleted: 0 });
  });

  it("lets a worker read only their own shifts and refuses them every manager operation", async () => {
    const mine = (await shift({ startTime: "2026-03-18T09:00:00", endTime: "2026-03-18T17:00:00" })).body;
    const colleague = await addWorker(t, w.org);
    const theirs = (
      await api().post("/api/timesheets", {
        employeeId: colleague.staff.id,
        locationId: w.locationId,
        roleId: w.roleId,
        startTime: "2026-03-18T09:00:00",
        endTime: "2026-03-18T17:00:00",
      })
    ).body;
    const me = t.as(w.workerToken);
    const list = await me.get("/api/timesheets?startDate=2026-03-18&endDate=2026-03-18");
    expect(list.status).toBe(200);
    expect(list.body.shifts.map((s: { id: string }) => s.id)).toEqual([mine.id]);
    expect((await me.get(`/api/timesheets/${mine.id}`)).status).toBe(200);
    expect((await me.get(`/api/timesheets/${theirs.id}`)).status).toBe(404);
    expect((await me.get(`/api/timesheets?startDate=2026-03-18&endDate=2026-03-18&employeeId=${colleague.staff.id}`)).status).toBe(403);
    const refused = [
      await me.post("/api/timesheets", {
        employeeId: w.workerId,
        locationId: w.locationId,
        roleId: w.roleId,
        startTime: "2026-03-19T09:00:00",
        endTime: "2026-03-19T10:00:00",
      }),
      await me.patch(`/api/timesheets/${mine.id}`, { hourlyWage: 99 }),
      await me.delete(`/api/timesheets/${mine.id}`),
      await me.delete("/api/timesheets?date=2026-03-18"),
      await t.http.delete("/api/timesheets/locks").set("Authorization", `Bearer ${w.workerToken}`).send({ locationId: w.locationId, date: "2026-03-18" }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("FORBIDDEN");
    }
  });

  it("answers 404 for another organization's shift", async () => {
    const mine = (await shift({ startTime: "2026-03-20T09:00:00", endTime: "2026-03-20T17:00:00" })).body;
    const stranger = await t.organization("Stranger");
    const them = t.as(stranger.token);
    expect((await them.get(`/api/timesheets/${mine.id}`)).status).toBe(404);
    expect((await them.patch(`/api/timesheets/${mine.id}`, { hourlyWage: 1 })).status).toBe(404);
    expect((await them.delete(`/api/timesheets/${mine.id}`)).status).toBe(404);
    expect((await them.get("/api/timesheets?startDate=2026-03-20&endDate=2026-03-20")).body.shifts).toEqual([]);
    expect(
      (await them.post("/api/timesheets", { employeeId: w.workerId, locationId: w.locationId, roleId: w.roleId, startTime: "2026-03-21T09:00:00" })).status,
    ).toBe(404);
  });

  it("serves the same shifts through GraphQL with their relations", async () => {
    const s = (await shift({ startTime: "2026-03-23T09:00:00", endTime: "2026-03-23T17:00:00" })).body;
    const res = await t.gql(
      w.org.token,
      `query ($s: String!, $e: String!) { timesheets(startDate: $s, endDate: $e) { shifts { id duration timezone employee { id } role { name } location { timezone breakTypes { name } } notes { text } } totals { payableDuration } } }`,
      { s: "2026-03-23", e: "2026-03-23" },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.timesheets.shifts).toEqual([
      {
        id: s.id,
        duration: 480,
        timezone: "America/New_York",
        employee: { id: w.workerId },
        role: { name: "Cashier" },
        location: { timezone: "America/New_York", breakTypes: expect.any(Array) },
        notes: [],
      },
    ]);
    const staff = await t.gql(w.org.token, `query ($id: ID!) { staffMember(id: $id) { shifts(startDate: "2026-03-23", endDate: "2026-03-23") { id } } }`, {
      id: w.workerId,
    });
    expect(staff.data!.staffMember.shifts).toEqual([{ id: s.id }]);
  });
});
