import { TestService } from "../support/harness";
import { scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";

describe("shift templates and coverage requirements", () => {
  let t: TestService;
  let w: ScheduleWorkplace;
  beforeAll(async () => {
    t = await TestService.start();
    w = await scheduleWorkplace(t);
  });
  afterAll(() => t.stop());

  it("keeps templates per location, with breaks and the templates that may not follow them", async () => {
    const api = t.as(w.manager);
    const early = await api.post(`${w.base}/shift-templates`, {
      name: "Early",
      roleId: w.roleId,
      startTime: "06:00",
      endTime: "14:00",
      breaks: [{ typeId: w.breakTypeId, startTime: "10:00" }],
    });
    expect(early.status).toBe(201);
    expect(early.body).toMatchObject({
      name: "Early",
      startTime: "06:00",
      endTime: "14:00",
      durationMinutes: 480,
      breaks: [{ typeId: w.breakTypeId, startTime: "10:00" }],
      cannotBeFollowedBy: [],
    });
    const night = await api.post(`${w.base}/shift-templates`, {
      name: "Night",
      roleId: w.roleId,
      startTime: "22:00",
      endTime: "06:00",
      cannotBeFollowedBy: [early.body.id],
    });
    expect(night.status).toBe(201);
    expect(night.body).toMatchObject({ durationMinutes: 480, cannotBeFollowedBy: [early.body.id] });

    expect((await api.post(`${w.base}/shift-templates`, { name: "Bad", roleId: w.roleId, startTime: "25:00", endTime: "06:00" })).status).toBe(400);
    expect(
      (
        await api.post(`${w.base}/shift-templates`, {
          name: "Bad",
          roleId: w.roleId,
          startTime: "09:00",
          endTime: "10:00",
          breaks: [{ typeId: w.breakTypeId, startTime: "09:45" }],
        })
      ).status,
    ).toBe(400);
    const elsewhere = await api.post(`/api/organizations/${w.org.id}/locations`, { name: "Elsewhere", timezone: "UTC" });
    const foreign = await api.post(`/api/organizations/${w.org.id}/locations/${elsewhere.body.id}/shift-templates`, {
      name: "X",
      roleId: w.roleId,
      startTime: "09:00",
      endTime: "17:00",
    });
    expect((await api.patch(`${w.base}/shift-templates/${night.body.id}`, { cannotBeFollowedBy: [foreign.body.id] })).status).toBe(404);
    expect((await api.get(`${w.base}/shift-templates/${foreign.body.id}`)).status).toBe(404);

    const list = await api.get(`${w.base}/shift-templates`);
    expect(list.body.map((x: { name: string }) => x.name)).toEqual(["Early", "Night"]);

    // Deleting a template takes it out of the lists that named it.
    await api.delete(`${w.base}/shift-templates/${early.body.id}`);
    expect((await api.get(`${w.base}/shift-templates/${night.body.id}`)).body.cannotBeFollowedBy).toEqual([]);
  });

  it("makes drafts and entries from a template and a day, carrying its id, times and breaks", async () => {
    const api = t.as(w.manager);
    const ann = await w.worker();
    const night = await api.post(`${w.base}/shift-templates`, {
      name: "Late",
      roleId: w.roleId,
      startTime: "22:00",
      endTime: "06:00",
      breaks: [{ typeId: w.breakTypeId, startTime: "02:00" }],
    });
    const draft = await api.post(`${w.base}/schedules/drafts`, { templateId: night.body.id, date: "2026-03-10", workerId: ann.id });
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({
      templateId: night.body.id,
      roleId: w.roleId,
      startTime: "2026-03-10T22:00:00.000-04:00",
      endTime: "2026-03-11T06:00:00.000-04:00",
      breaks: [{ typeId: w.breakTypeId, startTime: "2026-03-11T02:00:00.000-04:00" }],
    });
    const entry = await api.post(`${w.base}/schedules`, { templateId: night.body.id, date: "2026-03-12", workerId: ann.id });
    expect(entry.status).toBe(201);
    expect(entry.body.templateId).toBe(night.body.id);
    expect((await api.post(`${w.base}/schedules`, { templateId: night.body.id, workerId: ann.id })).status).toBe(400);
    expect((await api.post(`${w.base}/schedules`, { workerId: ann.id, date: "2026-03-13" })).status).toBe(400);

    const published = await api.post(`${w.base}/schedules/publish`, { startDate: "2026-03-10", endDate: "2026-03-10" });
    expect(published.body.added[0].templateId).toBe(night.body.id);

    const gql = await t.gql(
      w.manager,
      `mutation($l: ID!, $i: CreateScheduleDraftInput!) { createScheduleDraft(locationId: $l, input: $i) { templateId startTime } }`,
      {
        l: w.locationId,
        i: { templateId: night.body.id, date: "2026-03-14", workerId: ann.id },
      },
    );
    expect(gql.data?.createScheduleDraft).toEqual({ templateId: night.body.id, startTime: "2026-03-14T22:00:00.000-04:00" });
  });

  it("replaces a range's coverage requirements and answers what the planned schedule gives them", async () => {
    const api = t.as(w.manager);
    const [ann, bob] = [await w.worker(), await w.worker()];
    const day = await api.post(`${w.base}/shift-templates`, { name: "Day", roleId: w.roleId, startTime: "09:00", endTime: "17:00" });
    const put = await api.put(`${w.base}/coverage`, {
      startDate: "2026-04-06",
      endDate: "2026-04-07",
      requirements: [
        { date: "2026-04-06", templateId: day.body.id, count: 2, underWeight: 100, overWeight: 1 },
        { date: "2026-04-07", templateId: day.body.id, count: 1 },
      ],
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual([
      { date: "2026-04-06", templateId: day.body.id, count: 2, underWeight: 100, overWeight: 1, assigned: 0, missing: 2 },
      { date: "2026-04-07", templateId: day.body.id, count: 1, underWeight: 1, overWeight: 0, assigned: 0, missing: 1 },
    ]);
    await api.post(`${w.base}/schedules`, { templateId: day.body.id, date: "2026-04-06", workerId: ann.id });
    await api.post(`${w.base}/schedules/drafts`, { templateId: day.body.id, date: "2026-04-06", workerId: bob.id });
    await api.post(`${w.base}/schedules/drafts`, { templateId: day.body.id, date: "2026-04-07", workerId: bob.id });
    const got = await api.get(`${w.base}/coverage?startDate=2026-04-06&endDate=2026-04-07`);
    expect(got.body.map((l: { assigned: number; missing: number }) => [l.assigned, l.missing])).toEqual([
      [2, 0],
      [1, 0],
    ]);

    // A PUT replaces the range: the second day's requirement goes.
    await api.put(`${w.base}/coverage`, { startDate: "2026-04-07", endDate: "2026-04-07", requirements: [] });
    expect((await api.get(`${w.base}/coverage?startDate=2026-04-06&endDate=2026-04-07`)).body).toHaveLength(1);

    const outside = await api.put(`${w.base}/coverage`, {
      startDate: "2026-04-06",
      endDate: "2026-04-06",
      requirements: [{ date: "2026-04-08", templateId: day.body.id, count: 1 }],
    });
    expect(outside.status).toBe(400);
    const twice = await api.put(`${w.base}/coverage`, {
      startDate: "2026-04-06",
      endDate: "2026-04-06",
      requirements: [
        { date: "2026-04-06", templateId: day.body.id, count: 1 },
        { date: "2026-04-06", templateId: day.body.id, count: 2 },
      ],
    });
    expect(twice.status).toBe(400);
    expect((await api.get(`${w.base}/coverage?startDate=2026-04-06&endDate=2026-04-06`)).body[0].count).toBe(2);
    expect((await t.as((await w.worker()).token).get(`${w.base}/coverage?startDate=2026-04-06&endDate=2026-04-06`)).status).toBe(403);
  });
});
