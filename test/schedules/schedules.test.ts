import { TestService } from "../support/harness";
import { countStatements } from "../support/statements";
import { fileTimeOff } from "../support/time-off";
import { scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";

describe("schedule entries, drafts and publishing", () => {
  let t: TestService;
  let w: ScheduleWorkplace;
  beforeAll(async () => {
    t = await TestService.start();
    w = await scheduleWorkplace(t);
  });
  afterAll(() => t.stop());

  const shift = (workerId: string, day: string, from: string, to: string, extra: object = {}) => ({
    workerId,
    roleId: w.roleId,
    startTime: `${day}T${from}:00`,
    endTime: `${day}T${to}:00`,
    ...extra,
  });

  it("publishes a draft: the worker sees the entry only once it is published, and only their own", async () => {
    const ann = await w.worker();
    const bob = await w.worker();
    const api = t.as(w.manager);
    const draft = await api.post(
      `${w.base}/schedules/drafts`,
      shift(ann.id, "2026-03-03", "09:00", "17:00", { note: "Open the kitchen", breaks: [{ typeId: w.breakTypeId, startTime: "2026-03-03T12:00:00" }] }),
    );
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({
      action: "ADD",
      entryId: null,
      workerId: ann.id,
      startTime: "2026-03-03T09:00:00.000-05:00",
      endTime: "2026-03-03T17:00:00.000-05:00",
      utcStartTime: "2026-03-03T14:00:00.000Z",
      utcOffset: -300,
      timezone: "America/New_York",
      duration: 480,
      note: "Open the kitchen",
      breaks: [
        {
          typeId: w.breakTypeId,
          name: "Lunch",
          paid: false,
          durationMinutes: 30,
          startTime: "2026-03-03T12:00:00.000-05:00",
          endTime: "2026-03-03T12:30:00.000-05:00",
        },
      ],
    });
    await api.post(`${w.base}/schedules`, shift(bob.id, "2026-03-03", "09:00", "17:00"));

    const annApi = t.as(ann.token);
    expect((await annApi.get(`${w.base}/schedules`)).body).toEqual([]);
    expect((await annApi.get(`${w.base}/schedules/drafts`)).status).toBe(403);
    expect((await annApi.get(`${w.base}/schedules/drafts/${draft.body.id}`)).status).toBe(403);
    expect((await api.get(`${w.base}/schedules/drafts?startDate=2026-03-03&endDate=2026-03-03`)).body.map((d: { id: string }) => d.id)).toEqual([
      draft.body.id,
    ]);

    const published = await api.post(`${w.base}/schedules/publish`, { startDate: "2026-03-02", endDate: "2026-03-08" });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ startDate: "2026-03-02", endDate: "2026-03-08", changed: [], removed: [], openShiftIds: [] });
    expect(published.body.added).toHaveLength(1);
    expect(published.body.added[0]).toMatchObject({ workerId: ann.id, startTime: "2026-03-03T09:00:00.000-05:00", note: "Open the kitchen" });
    expect((await api.get(`${w.base}/schedules/drafts`)).body).toEqual([]);

    const mine = await annApi.get(`${w.base}/schedules?startDate=2026-03-02&endDate=2026-03-08`);
    expect(mine.status).toBe(200);
    expect(mine.body).toHaveLength(1);
    expect(mine.body[0]).toMatchObject({ id: published.body.added[0].id, workerId: ann.id, breaks: [{ startTime: "2026-03-03T12:00:00.000-05:00" }] });
    expect((await annApi.get(`${w.base}/schedules/${mine.body[0].id}`)).status).toBe(200);
    const bobsEntry = (await api.get(`${w.base}/schedules?workerId=${bob.id}`)).body[0];
    expect((await annApi.get(`${w.base}/schedules/${bobsEntry.id}`)).status).toBe(404);
    expect((await annApi.get(`${w.base}/schedules?workerId=${bob.id}`)).status).toBe(403);
    expect((await api.get(`${w.base}/schedules?startDate=2026-03-03&endDate=2026-03-03`)).body).toHaveLength(2);

    const gql = await t.gql(
      ann.token,
      `query($loc: ID!) { scheduleEntries(locationId: $loc) { nodes { startTime worker { id name } role { name } breaks { name } } } }`,
      { loc: w.locationId },
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data?.scheduleEntries.nodes).toEqual([
      { startTime: "2026-03-03T09:00:00.000-05:00", worker: { id: ann.id, name: expect.any(String) }, role: { name: "Cook" }, breaks: [{ name: "Lunch" }] },
    ]);
  });

  it("publishes any number of drafts in as many statements as one of each kind, each event's object its entry's GET", async () => {
    const api = t.as(w.manager);
    const lunch = (day: string) => ({ breaks: [{ typeId: w.breakTypeId, startTime: `${day}T12:00:00` }] });
    /** On `day`: `adds` new entries, `changes` entries moved an hour later with a break, `removals` entries removed; answers the publish's statements. */
    const publishDay = async (day: string, adds: number, changes: number, removals: number) => {
      const entries = [];
      for (let i = 0; i < changes + removals; i++)
        entries.push((await api.post(`${w.base}/schedules`, shift((await w.worker()).id, day, "09:00", "17:00"))).body);
      for (let i = 0; i < adds; i++)
        expect((await api.post(`${w.base}/schedules/drafts`, shift((await w.worker()).id, day, "08:00", "16:00", lunch(day)))).status).toBe(201);
      for (const entry of entries.slice(0, changes)) {
        const change = { entryId: entry.id, startTime: `${day}T10:00:00`, endTime: `${day}T18:00:00`, ...lunch(day) };
        expect((await api.post(`${w.base}/schedules/drafts`, change)).status).toBe(201);
      }
      for (const entry of entries.slice(changes))
        expect((await api.post(`${w.base}/schedules/drafts`, { entryId: entry.id, action: "REMOVE" })).status).toBe(201);
      const statements = countStatements();
      const published = await api.post(`${w.base}/schedules/publish`, { startDate: day, endDate: day });
      const sql = statements.sql;
      statements.stop();
      expect(published.status).toBe(200);
      expect([published.body.added.length, published.body.changed.length, published.body.removed.length]).toEqual([adds, changes, removals]);
      const listed = (await api.get(`${w.base}/schedules?startDate=${day}&endDate=${day}`)).body;
      expect(
        listed
          .map((e: { startTime: string; breaks: { startTime: string }[] }) => [e.startTime.slice(11, 16), e.breaks.map((b) => b.startTime.slice(11, 16))])
          .sort(),
      ).toEqual([...Array(adds).fill(["08:00", ["12:00"]]), ...Array(changes).fill(["10:00", ["12:00"]])]);
      for (const entry of listed) {
        const [event] = await t.runtime.db.query(
          "SELECT resource FROM events WHERE organization_id = $1 AND object->>'id' = $2 ORDER BY sequence DESC LIMIT 1",
          [w.org.id, entry.id],
        );
        expect(event.resource).toEqual((await api.get(`${w.base}/schedules/${entry.id}`)).body);
      }
      return sql;
    };
    const one = await publishDay("2026-06-01", 1, 1, 1);
    const many = await publishDay("2026-06-02", 8, 4, 3);
    expect(many.length).toBe(one.length);
  });

  it("publishes a range that changes, swaps and removes published entries, leaving drafts outside it", async () => {
    const ann = await w.worker();
    const bob = await w.worker();
    const api = t.as(w.manager);
    const e1 = (await api.post(`${w.base}/schedules`, shift(ann.id, "2026-03-04", "09:00", "13:00"))).body;
    const e2 = (await api.post(`${w.base}/schedules`, shift(ann.id, "2026-03-04", "14:00", "18:00"))).body;
    const e3 = (await api.post(`${w.base}/schedules`, shift(bob.id, "2026-03-05", "09:00", "17:00", { breaks: [{ typeId: w.breakTypeId }] }))).body;
    expect(e3.breaks).toEqual([expect.objectContaining({ typeId: w.breakTypeId, startTime: null })]);

    // Ann's two entries swap times: only valid once both are applied.
    const swap1 = await api.post(`${w.base}/schedules/drafts`, { entryId: e1.id, startTime: "2026-03-04T14:00:00", endTime: "2026-03-04T18:00:00" });
    expect(swap1.status).toBe(201);
    expect(swap1.body).toMatchObject({ action: "CHANGE", entryId: e1.id, workerId: ann.id });
    expect((await api.post(`${w.base}/schedules/drafts`, { entryId: e2.id, startTime: "2026-03-04T09:00:00", endTime: "2026-03-04T13:00:00" })).status).toBe(
      201,
    );
    const removal = await api.post(`${w.base}/schedules/drafts`, { entryId: e3.id, action: "REMOVE" });
    expect(removal.status).toBe(201);
    expect(removal.body).toMatchObject({
      action: "REMOVE",
      workerId: bob.id,
      startTime: e3.startTime,
      breaks: [expect.objectContaining({ typeId: w.breakTypeId })],
    });
    expect((await api.post(`${w.base}/schedules/drafts`, { entryId: e3.id, note: "x" })).status).toBe(409);
    expect((await api.post(`${w.base}/schedules/drafts`, { entryId: e3.id, action: "REMOVE", note: "x" })).status).toBe(400);
    expect((await api.patch(`${w.base}/schedules/drafts/${removal.body.id}`, { note: "x" })).status).toBe(409);
    const later = (await api.post(`${w.base}/schedules/drafts`, shift(bob.id, "2026-03-20", "09:00", "17:00"))).body;
    const edited = await api.patch(`${w.base}/schedules/drafts/${later.id}`, { endTime: "2026-03-20T15:00:00" });
    expect(edited.body).toMatchObject({ endTime: "2026-03-20T15:00:00.000-04:00", duration: 360 });

    const result = await api.post(`${w.base}/schedules/publish`, { startDate: "2026-03-04", endDate: "2026-03-05" });
    expect(result.status).toBe(200);
    expect(result.body.added).toEqual([]);
    expect(result.body.changed.map((e: { id: string; startTime: string }) => [e.id, e.startTime])).toEqual(
      expect.arrayContaining([
        [e1.id, "2026-03-04T14:00:00.000-05:00"],
        [e2.id, "2026-03-04T09:00:00.000-05:00"],
      ]),
    );
    expect(result.body.removed.map((e: { id: string }) => e.id)).toEqual([e3.id]);
    expect((await api.get(`${w.base}/schedules/${e3.id}`)).status).toBe(404);
    expect((await api.get(`${w.base}/schedules/${e1.id}`)).body.startTime).toBe("2026-03-04T14:00:00.000-05:00");
    expect((await api.get(`${w.base}/schedules/drafts`)).body.map((d: { id: string }) => d.id)).toEqual([later.id]);
  });

  it("refuses a publish that would double-book a worker, applying nothing", async () => {
    const ann = await w.worker();
    const api = t.as(w.manager);
    await api.post(`${w.base}/schedules`, shift(ann.id, "2026-03-10", "09:00", "17:00"));
    const fine = (await api.post(`${w.base}/schedules/drafts`, shift(ann.id, "2026-03-11", "09:00", "17:00"))).body;
    const clash = (await api.post(`${w.base}/schedules/drafts`, shift(ann.id, "2026-03-10", "16:00", "20:00"))).body;
    const res = await api.post(`${w.base}/schedules/publish`, { startDate: "2026-03-09", endDate: "2026-03-15" });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("CONFLICT");
    expect((await api.get(`${w.base}/schedules/drafts?startDate=2026-03-09&endDate=2026-03-15`)).body.map((d: { id: string }) => d.id).sort()).toEqual(
      [fine.id, clash.id].sort(),
    );
    expect((await api.get(`${w.base}/schedules?workerId=${ann.id}`)).body).toHaveLength(1);
  });

  it("refuses overlapping entries and entries during approved time off", async () => {
    const ann = await w.worker();
    const api = t.as(w.manager);
    expect((await api.post(`${w.base}/schedules`, shift(ann.id, "2026-03-12", "09:00", "17:00"))).status).toBe(201);
    const overlap = await api.post(`${w.base}/schedules`, shift(ann.id, "2026-03-12", "16:30", "20:00"));
    expect(overlap.status).toBe(409);
    expect(overlap.body.error.message).toMatch(/overlaps/);
    await fileTimeOff(t, w.org, ann.id, "2026-03-16T05:00:00Z", "2026-03-17T05:00:00Z", "approved");
    await fileTimeOff(t, w.org, ann.id, "2026-03-18T05:00:00Z", "2026-03-19T05:00:00Z", "pending");
    const during = await api.post(`${w.base}/schedules`, shift(ann.id, "2026-03-16", "09:00", "17:00"));
    expect(during.status).toBe(409);
    expect(during.body.error.message).toMatch(/approved time off/);
    expect((await api.post(`${w.base}/schedules`, shift(ann.id, "2026-03-18", "09:00", "17:00"))).status).toBe(201);
    await api.post(`${w.base}/schedules/drafts`, shift(ann.id, "2026-03-16", "18:00", "20:00"));
    expect((await api.post(`${w.base}/schedules/publish`, { startDate: "2026-03-16", endDate: "2026-03-16" })).status).toBe(409);
  });

  it("bulk copies a range across the daylight-saving change, keeping local times", async () => {
    const ann = await w.worker();
    const api = t.as(w.manager);
    const source = (
      await api.post(
        `${w.base}/schedules`,
        shift(ann.id, "2026-03-06", "09:00", "17:00", { breaks: [{ typeId: w.breakTypeId, startTime: "2026-03-06T12:00:00" }] }),
      )
    ).body;
    expect(source.startTime).toBe("2026-03-06T09:00:00.000-05:00");
    const lunch = { breaks: [{ typeId: w.breakTypeId, startTime: "2026-03-06T13:00:00" }] };
    expect((await api.post(`${w.base}/schedules`, shift((await w.worker()).id, "2026-03-06", "10:00", "18:00", lunch))).status).toBe(201);
    const statements = countStatements();
    const copy = await api.post(`${w.base}/schedules/bulk-copy`, { sourceStartDate: "2026-03-06", sourceEndDate: "2026-03-06", targetStartDate: "2026-03-13" });
    const sql = statements.sql;
    statements.stop();
    expect(copy.status).toBe(201);
    // The copies' breaks are written in one statement, whatever the number of entries.
    expect(copy.body.drafts.filter((d: { breaks: unknown[] }) => d.breaks.length).length).toBeGreaterThan(1);
    expect(sql.filter((q) => /schedule_breaks/.test(q) && !/^\s*SELECT/.test(q))).toEqual([expect.stringMatching(/^INSERT INTO "schedule_breaks"/)]);
    const drafts = copy.body.drafts.filter((d: { workerId: string }) => d.workerId === ann.id);
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({
      action: "ADD",
      startTime: "2026-03-13T09:00:00.000-04:00",
      endTime: "2026-03-13T17:00:00.000-04:00",
      utcStartTime: "2026-03-13T13:00:00.000Z",
      utcOffset: -240,
      duration: 480,
      breaks: [{ typeId: w.breakTypeId, startTime: "2026-03-13T12:00:00.000-04:00" }],
    });
    expect((await api.post(`${w.base}/schedules/publish`, { startDate: "2026-03-13", endDate: "2026-03-13" })).body.added).toHaveLength(
      copy.body.drafts.length,
    );
    const bad = [
      [{ sourceStartDate: "2026-03-06", sourceEndDate: "2026-03-01", targetStartDate: "2026-03-13" }, "sourceEndDate"],
      [{ sourceStartDate: "2026-03-06", sourceEndDate: "2026-03-06", targetStartDate: "2026-03-06" }, "targetStartDate"],
      [{ sourceStartDate: "2026-03-06", sourceEndDate: "2026-03-06", targetStartDate: "13/03/2026" }, "targetStartDate"],
    ] as const;
    for (const [body, field] of bad) {
      const res = await api.post(`${w.base}/schedules/bulk-copy`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it("changes and removes published entries directly, with clear 400s for bad input and 404s for ids that name nothing", async () => {
    const ann = await w.worker();
    const api = t.as(w.manager);
    const entry = (await api.post(`${w.base}/schedules`, shift(ann.id, "2026-03-24", "09:00", "17:00"))).body;
    const moved = await api.patch(`${w.base}/schedules/${entry.id}`, { startTime: "2026-03-24T10:00:00-04:00", note: "late start" });
    expect(moved.body).toMatchObject({ startTime: "2026-03-24T10:00:00.000-04:00", endTime: "2026-03-24T17:00:00.000-04:00", note: "late start" });
    const cases: [object, string][] = [
      [shift(ann.id, "2026-03-25", "17:00", "09:00"), "endTime"],
      [{ ...shift(ann.id, "2026-03-25", "09:00", "17:00"), startTime: "tomorrow" }, "startTime"],
      [{ ...shift(ann.id, "2026-03-25", "09:00", "17:00"), colour: "red" }, "colour"],
      [shift("nope", "2026-03-25", "09:00", "17:00"), "workerId"],
      [shift(ann.id, "2026-03-25", "09:00", "17:00", { breaks: [{ typeId: w.breakTypeId, startTime: "2026-03-25T16:50:00" }] }), "breaks.0.startTime"],
      [{ roleId: w.roleId, startTime: "2026-03-25T09:00:00", endTime: "2026-03-25T17:00:00" }, "workerId"],
    ];
    for (const [body, field] of cases) {
      const res = await api.post(`${w.base}/schedules`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const unknown: [object, string][] = [
      [shift("00000000-0000-4000-8000-000000000000", "2026-03-25", "09:00", "17:00"), "workerId"],
      [shift(ann.id, "2026-03-25", "09:00", "17:00", { breaks: [{ typeId: w.roleId }] }), "breaks.0"],
    ];
    for (const [body, field] of unknown) {
      const res = await api.post(`${w.base}/schedules`, body);
      expect([res.status, res.body.error.code, res.body.error.details[0].field]).toEqual([404, "NOT_FOUND", field]);
    }
    expect((await api.patch(`${w.base}/schedules/${entry.id}`, { workerId: null })).status).toBe(400);
    expect((await api.get(`${w.base}/schedules?startDate=2026-01-01&endDate=2027-06-01`)).status).toBe(400);
    expect((await api.get(`${w.base}/schedules?startDate=March`)).status).toBe(400);
    expect((await api.delete(`${w.base}/schedules/${entry.id}`)).status).toBe(204);
    expect((await api.delete(`${w.base}/schedules/${entry.id}`)).status).toBe(404);
  });

  it("keeps schedule management to managers: a worker gets 403", async () => {
    const ann = await w.worker();
    const entry = (await t.as(w.manager).post(`${w.base}/schedules`, shift(ann.id, "2026-03-26", "09:00", "17:00"))).body;
    const worker = t.as(ann.token);
    const calls = [
      worker.post(`${w.base}/schedules`, shift(ann.id, "2026-03-27", "09:00", "17:00")),
      worker.patch(`${w.base}/schedules/${entry.id}`, { note: "mine" }),
      worker.delete(`${w.base}/schedules/${entry.id}`),
      worker.post(`${w.base}/schedules/drafts`, shift(ann.id, "2026-03-27", "09:00", "17:00")),
      worker.post(`${w.base}/schedules/publish`, { startDate: "2026-03-27", endDate: "2026-03-27" }),
      worker.post(`${w.base}/schedules/bulk-copy`, { sourceStartDate: "2026-03-26", sourceEndDate: "2026-03-26", targetStartDate: "2026-04-02" }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("FORBIDDEN");
    }
  });

  it("answers 404 for another organization's locations, entries and drafts", async () => {
    const other = await scheduleWorkplace(t, "Other");
    const ann = await w.worker();
    const api = t.as(w.manager);
    const entry = (await api.post(`${w.base}/schedules`, shift(ann.id, "2026-03-30", "09:00", "17:00"))).body;
    const draft = (await api.post(`${w.base}/schedules/drafts`, shift(ann.id, "2026-03-31", "09:00", "17:00"))).body;
    const them = t.as(other.manager);
    const foreignLocation = `/api/organizations/${other.org.id}/locations/${w.locationId}`;
    const responses = [
      await them.get(`${foreignLocation}/schedules`),
      await them.get(`${other.base}/schedules/${entry.id}`),
      await them.patch(`${other.base}/schedules/${entry.id}`, { note: "x" }),
      await them.delete(`${other.base}/schedules/${entry.id}`),
      await them.get(`${other.base}/schedules/drafts/${draft.id}`),
      await them.post(`${other.base}/schedules/drafts`, { entryId: entry.id, action: "REMOVE" }),
      await them.post(`${foreignLocation}/schedules/publish`, { startDate: "2026-03-31", endDate: "2026-03-31" }),
      await them.get(`${w.base}/schedules`),
    ];
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 404));
    const gql = await t.gql(other.manager, `query($loc: ID!, $id: ID!) { scheduleEntry(locationId: $loc, id: $id) { id } }`, {
      loc: other.locationId,
      id: entry.id,
    });
    expect(gql.errors?.[0].extensions.code).toBe("NOT_FOUND");
  });
});
