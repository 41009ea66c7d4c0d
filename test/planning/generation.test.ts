import { TestService } from "../support/harness";
import { fileTimeOff } from "../support/time-off";
import { generationPlace, reasonsOf } from "./support";
import { until } from "../support/until";

// Monday 23 March 2026 and on: beyond any notice window counted from the tests' clock (2 March).
const MON = "2026-03-23";
const TUE = "2026-03-24";
const WED = "2026-03-25";

describe("schedule generation", () => {
  let t: TestService;
  beforeAll(async () => (t = await TestService.start()));
  afterAll(() => t.stop());

  it("explains a hand-solved range: objective, coverage, the need left short and why, each person, the drafts", async () => {
    const p = await generationPlace(t, "Hand solved");
    const [ann, bob] = [await p.worker(), await p.worker()];
    const day = await p.template("Day", "09:00", "17:00");
    const late = await p.template("Late", "15:00", "23:00");
    await fileTimeOff(t, p.org, ann.id, `${TUE}T00:00:00-04:00`, `${TUE}T23:59:00-04:00`, "approved");
    await p.cover(MON, TUE, [
      { date: MON, templateId: day, count: 1, underWeight: 100 },
      { date: MON, templateId: late, count: 1, underWeight: 100 },
      { date: TUE, templateId: day, count: 2, underWeight: 100, overWeight: 1 },
    ]);
    const g = await p.generate({ startDate: MON, endDate: TUE });
    expect(g.status).toBe("SUCCEEDED");
    // Tuesday needs two and only Bob may work it: one missing (100); Monday is covered.
    expect(g.result).toMatchObject({ objective: 100, coverUnder: 100, coverOver: 0, preferenceOn: 0, preferenceOff: 0, cost: 0, hardViolations: [] });
    expect(g.result!.coverage).toEqual([
      { date: MON, templateId: expect.any(String), required: 1, assigned: 1 },
      { date: MON, templateId: expect.any(String), required: 1, assigned: 1 },
      { date: TUE, templateId: day, required: 2, assigned: 1 },
    ]);
    expect(g.result!.unfilled).toEqual([{ date: TUE, templateId: day, missing: 1, reasons: [{ code: "TIME_OFF", count: 1 }] }]);
    const people = Object.fromEntries(g.result!.people.map((x) => [x.workerId, [x.minutes, x.shifts]]));
    expect(people).toEqual({ [ann.id]: [480, 1], [bob.id]: [960, 2] });
    const drafts = await p.drafts(MON, TUE);
    expect(drafts.map((d) => d.id).sort()).toEqual([...g.result!.draftIds].sort());
    expect(drafts.every((d) => d.generationId === g.id && [day, late].includes(d.templateId))).toBe(true);
    expect(drafts.find((d) => d.workerId === bob.id && d.startTime.startsWith(TUE))?.templateId).toBe(day);
    const coverage = await t.as(p.manager).get(`${p.base}/coverage?startDate=${MON}&endDate=${TUE}`);
    expect(coverage.body.map((l: { missing: number }) => l.missing)).toEqual([0, 0, 1]);
  });

  describe("holds each hard rule where breaking it would be cheaper", () => {
    it("cannotBeFollowedBy", async () => {
      const p = await generationPlace(t, "Rotation");
      await p.worker();
      const early = await p.template("Early", "07:00", "15:00");
      const late = await p.template("Late", "15:00", "23:00", { cannotBeFollowedBy: [early] });
      await p.cover(MON, TUE, [
        { date: MON, templateId: late, count: 1, underWeight: 100 },
        { date: TUE, templateId: early, count: 1, underWeight: 100 },
      ]);
      const g = await p.generate({ startDate: MON, endDate: TUE });
      expect(g.result!.coverUnder).toBe(100);
      expect(reasonsOf(g)).toEqual({ CANNOT_BE_FOLLOWED_BY: 1 });
    });

    it("one shift a day", async () => {
      const p = await generationPlace(t, "One a day");
      await p.worker();
      const day = await p.template("Day", "07:00", "11:00");
      const late = await p.template("Late", "15:00", "19:00");
      await p.cover(MON, MON, [
        { date: MON, templateId: day, count: 1, underWeight: 100 },
        { date: MON, templateId: late, count: 1, underWeight: 100 },
      ]);
      const g = await p.generate({ startDate: MON, endDate: MON });
      expect(g.result!.coverUnder).toBe(100);
      expect(reasonsOf(g)).toEqual({ ONE_SHIFT_A_DAY: 1 });
    });

    it("roles and locations", async () => {
      const p = await generationPlace(t, "Roles");
      await p.worker({ roleIds: [] });
      const elsewhere = await p.worker({ locationIds: [] });
      const day = await p.template("Day", "09:00", "17:00");
      await p.cover(MON, MON, [{ date: MON, templateId: day, count: 1, underWeight: 100 }]);
      const g = await p.generate({ startDate: MON, endDate: MON, staffIds: [elsewhere.id, (await p.worker({ roleIds: [] })).id] });
      expect(g.result!.coverUnder).toBe(100);
      expect(reasonsOf(g)).toEqual({ LOCATION: 1, ROLE: 1 });
    });

    it("approved time off, and no overlap with a shift planned elsewhere", async () => {
      const p = await generationPlace(t, "Away");
      const [ann, bob] = [await p.worker(), await p.worker()];
      const day = await p.template("Day", "09:00", "17:00");
      await fileTimeOff(t, p.org, ann.id, `${MON}T08:00:00-04:00`, `${MON}T12:00:00-04:00`, "approved");
      const other = (await t.as(p.org.token).post(`/api/organizations/${p.org.id}/locations`, { name: "Other", timezone: "America/New_York" })).body.id;
      await t.as(p.org.token).patch(`/api/organizations/${p.org.id}/staff/${bob.id}`, { locationIds: [p.locationId, other] });
      const elsewhere = await t.as(p.manager).post(`/api/organizations/${p.org.id}/locations/${other}/schedules`, {
        workerId: bob.id,
        roleId: p.roleId,
        startTime: `${MON}T16:00:00`,
        endTime: `${MON}T20:00:00`,
      });
      expect(elsewhere.status).toBe(201);
      await p.cover(MON, MON, [{ date: MON, templateId: day, count: 1, underWeight: 100 }]);
      const g = await p.generate({ startDate: MON, endDate: MON });
      expect(g.result!.coverUnder).toBe(100);
      expect(reasonsOf(g)).toEqual({ TIME_OFF: 1, OVERLAP: 1 });
    });

    it("UNAVAILABLE rules, and preferences weighed in the objective", async () => {
      const p = await generationPlace(t, "Availability");
      const [ann, bob, cat] = [await p.worker(), await p.worker(), await p.worker()];
      const day = await p.template("Day", "09:00", "17:00");
      const api = t.as(p.manager);
      const rule = (who: string, body: object) =>
        api.post(`/api/organizations/${p.org.id}/staff/${who}/availability`, body).then((r) => expect(r.status).toBe(201));
      await rule(ann.id, { kind: "UNAVAILABLE", date: MON });
      await rule(bob.id, { kind: "UNAVAILABLE", date: MON, startTime: "08:00", endTime: "10:00" });
      await rule(cat.id, { kind: "UNAVAILABLE", weekdays: ["MON"] });
      await rule(bob.id, { kind: "PREFER_OFF", date: TUE, weight: 5 });
      await rule(cat.id, { kind: "PREFER_ON", date: TUE, templateId: day, weight: 3 });
      await p.cover(MON, TUE, [
        { date: MON, templateId: day, count: 1, underWeight: 100 },
        { date: TUE, templateId: day, count: 1, underWeight: 100, overWeight: 1 },
      ]);
      const g = await p.generate({ startDate: MON, endDate: TUE, staffIds: [ann.id, bob.id, cat.id] });
      expect(g.result).toMatchObject({ objective: 100, coverUnder: 100, preferenceOn: 0, preferenceOff: 0, coverOver: 0 });
      expect(reasonsOf(g)).toEqual({ UNAVAILABLE: 3 });
      expect((await p.drafts(TUE, TUE)).map((d) => d.workerId)).toEqual([cat.id]);
    });

    const limitCase = async (name: string, limits: object, days: { date: string; count: number; overWeight?: number }[], range: [string, string]) => {
      const p = await generationPlace(t, name);
      await p.worker();
      const day = await p.template("Day", "09:00", "17:00");
      await p.cover(
        range[0],
        range[1],
        days.map((d) => ({ date: d.date, templateId: day, count: d.count, underWeight: 100, overWeight: d.overWeight ?? 0 })),
      );
      return p.generate({ startDate: range[0], endDate: range[1], defaultLimits: limits });
    };

    it("shifts of a template, minutes, consecutive shifts and days off, weekends", async () => {
      const twoDays = [
        { date: MON, count: 1 },
        { date: TUE, count: 1 },
      ];
      const maxShifts = await limitCase("Max shifts", {}, twoDays, [MON, TUE]);
      expect(maxShifts.result!.coverUnder).toBe(0);
      const p = await generationPlace(t, "Per template");
      await p.worker();
      const day = await p.template("Day", "09:00", "17:00");
      await p.cover(
        MON,
        TUE,
        twoDays.map((d) => ({ ...d, templateId: day, underWeight: 100 })),
      );
      const perTemplate = await p.generate({ startDate: MON, endDate: TUE, defaultLimits: { maxShifts: [{ templateId: day, max: 1 }] } });
      expect([perTemplate.result!.coverUnder, reasonsOf(perTemplate)]).toEqual([100, { MAX_SHIFTS: 1 }]);

      const minutes = await limitCase("Max minutes", { maxMinutes: 480 }, twoDays, [MON, TUE]);
      expect([minutes.result!.coverUnder, reasonsOf(minutes)]).toEqual([100, { MAX_MINUTES: 1 }]);

      const consecutive = await limitCase("Max consecutive", { maxConsecutiveShifts: 2 }, [...twoDays, { date: WED, count: 1 }], [MON, WED]);
      expect([consecutive.result!.coverUnder, reasonsOf(consecutive)]).toEqual([100, { MAX_CONSECUTIVE_SHIFTS: 1 }]);

      const daysOff = await limitCase(
        "Days off",
        { minConsecutiveDaysOff: 2 },
        [
          { date: MON, count: 1 },
          { date: TUE, count: 0, overWeight: 1000 },
          { date: WED, count: 1 },
        ],
        [MON, WED],
      );
      expect([daysOff.result!.coverUnder, reasonsOf(daysOff)]).toEqual([100, { MIN_CONSECUTIVE_DAYS_OFF: 1 }]);

      const blocks = await limitCase(
        "Min consecutive",
        { minConsecutiveShifts: 2 },
        [
          { date: MON, count: 0, overWeight: 1000 },
          { date: TUE, count: 1 },
          { date: WED, count: 0, overWeight: 1000 },
        ],
        [MON, WED],
      );
      expect([blocks.result!.coverUnder, reasonsOf(blocks)]).toEqual([100, { MIN_CONSECUTIVE_SHIFTS: 1 }]);

      const weekends = await limitCase(
        "Weekends",
        { maxWeekends: 1 },
        [
          { date: "2026-03-28", count: 1 },
          { date: "2026-04-04", count: 1 },
        ],
        ["2026-03-28", "2026-04-04"],
      );
      expect([weekends.result!.coverUnder, reasonsOf(weekends)]).toEqual([100, { MAX_WEEKENDS: 1 }]);
    });

    it("the compliance profile: its errors, and rest that owes a premium unless premiums are allowed", async () => {
      const p = await generationPlace(t, "Oregon");
      await p.worker();
      await t.as(p.org.token).patch(`/api/organizations/${p.org.id}/locations/${p.locationId}/compliance`, { preset: "US_OR", maxWeeklyHours: 12 });
      const early = await p.template("Early", "06:00", "12:00");
      const close = await p.template("Close", "17:00", "23:00");
      await p.cover(MON, WED, [
        { date: MON, templateId: close, count: 1, underWeight: 100 },
        { date: TUE, templateId: early, count: 1, underWeight: 100 },
        { date: WED, templateId: early, count: 1, underWeight: 10 },
      ]);
      const strict = await p.generate({ startDate: MON, endDate: WED });
      // Close then Early leaves 7 h of rest (Oregon: 10, paid at 1.5x); 12 weekly hours allow two shifts.
      expect(strict.result!.coverage.map((c) => c.assigned)).toEqual([1, 0, 1]);
      expect(reasonsOf(strict)).toEqual({ CANNOT_BE_FOLLOWED_BY: 1 });
      const premiums = await p.generate({ startDate: MON, endDate: WED, allowPremiums: true, mode: "REPLACE_DRAFTS" });
      expect(premiums.result!.coverage.map((c) => c.assigned)).toEqual([1, 1, 0]);
      expect(reasonsOf(premiums)).toEqual({ MAX_WEEKLY_HOURS: 1 });
    });

    it("the meal-break rule: a template whose breaks miss it stays closed, and drafts carry the template's breaks that meet it", async () => {
      const p = await generationPlace(t, "California");
      await p.worker();
      await t.as(p.org.token).patch(`/api/organizations/${p.org.id}/locations/${p.locationId}/compliance`, { preset: "US_CA" });
      const bare = await p.template("Bare", "09:00", "17:00");
      // California: a shift over 5 h needs a 30-minute unpaid meal break starting within its first 5 hours.
      const lateLunch = await p.template("Late lunch", "09:00", "17:00", { breaks: [{ typeId: p.breakTypeId, startTime: "14:30" }] });
      const lunch = await p.template("Lunch", "09:00", "17:00", { breaks: [{ typeId: p.breakTypeId, startTime: "12:00" }] });
      await p.cover(MON, WED, [
        { date: MON, templateId: bare, count: 1, underWeight: 100 },
        { date: TUE, templateId: lateLunch, count: 1, underWeight: 100 },
        { date: WED, templateId: lunch, count: 1, underWeight: 100 },
      ]);
      const g = await p.generate({ startDate: MON, endDate: WED });
      expect(g.status).toBe("SUCCEEDED");
      expect(g.result!.coverage.map((c) => c.assigned)).toEqual([0, 0, 1]);
      expect(g.result!.unfilled.map((u) => u.reasons)).toEqual([[{ code: "MEAL_BREAK", count: 1 }], [{ code: "MEAL_BREAK", count: 1 }]]);
      const drafts = await p.drafts(MON, WED);
      expect(drafts).toHaveLength(1);
      expect(drafts[0].breaks).toEqual([expect.objectContaining({ typeId: p.breakTypeId, paid: false, startTime: `${WED}T12:00:00.000-04:00` })]);
      const check = await t.as(p.manager).post(`${p.base}/schedules/compliance-check`, { startDate: MON, endDate: WED });
      expect(check.status).toBe(200);
      expect(check.body.violations.filter((v: { ruleId: string }) => v.ruleId === "MEAL_BREAK")).toEqual([]);
    });

    it("premiums allowed: what the shifts owe is counted in the objective, as a part of its own", async () => {
      const p = await generationPlace(t, "Oregon premiums");
      await p.worker();
      const org = t.as(p.org.token);
      await org.patch(`/api/organizations/${p.org.id}/roles/${p.roleId}`, { hourlyWage: 20 });
      await org.patch(`/api/organizations/${p.org.id}/locations/${p.locationId}/compliance`, { preset: "US_OR" });
      const early = await p.template("Early", "06:00", "12:00");
      const close = await p.template("Close", "17:00", "23:00");
      await p.cover(MON, TUE, [
        { date: MON, templateId: close, count: 1, underWeight: 1000 },
        { date: TUE, templateId: early, count: 1, underWeight: 1000 },
      ]);
      // By hand: both shifts (12 h at 20) cost 240; Close then Early leaves 7 h of rest, 3 short of
      // Oregon's 10: those 3 h of Early are paid half again, 30. Leaving one out costs 1000.
      const rest = await p.generate({ startDate: MON, endDate: TUE, allowPremiums: true, costWeight: 1 });
      expect(rest.result).toMatchObject({ objective: 270, cost: 240, premiums: 30, coverUnder: 0 });
      // Inside the 14-day notice window (the clock says 2 March): a shift added on 10 March owes an hour of pay, 20.
      await p.cover("2026-03-10", "2026-03-10", [{ date: "2026-03-10", templateId: early, count: 1, underWeight: 1000 }]);
      const notice = await p.generate({ startDate: "2026-03-10", endDate: "2026-03-10", allowPremiums: true, costWeight: 1 });
      expect(notice.result).toMatchObject({ objective: 140, cost: 120, premiums: 20, coverUnder: 0 });
    });

    it("published entries stay as they are and count; FILL keeps drafts, REPLACE_DRAFTS replaces them", async () => {
      const p = await generationPlace(t, "Kept");
      const ann = await p.worker();
      const day = await p.template("Day", "09:00", "17:00");
      const api = t.as(p.manager);
      await api.post(`${p.base}/schedules`, { templateId: day, date: MON, workerId: ann.id });
      const kept = (await api.post(`${p.base}/schedules/drafts`, { templateId: day, date: TUE, workerId: ann.id })).body.id;
      await p.cover(
        MON,
        WED,
        [MON, TUE, WED].map((date) => ({ date, templateId: day, count: 1, underWeight: 100 })),
      );
      const fill = await p.generate({ startDate: MON, endDate: WED });
      expect(fill.result!.coverage.map((c) => c.assigned)).toEqual([1, 1, 1]);
      expect(fill.result!.draftIds).toHaveLength(1);
      expect((await p.drafts(MON, WED)).map((d) => d.id)).toContain(kept);
      const replace = await p.generate({ startDate: MON, endDate: WED, mode: "REPLACE_DRAFTS" });
      expect(replace.result!.draftIds).toHaveLength(2);
      expect((await p.drafts(MON, WED)).map((d) => d.id).sort()).toEqual([...replace.result!.draftIds].sort());
      expect((await api.get(`${p.base}/schedules?startDate=${MON}&endDate=${WED}`)).body).toHaveLength(1);
    });

    it("limits that cannot all be met: says which, writes nothing", async () => {
      const p = await generationPlace(t, "Impossible");
      const ann = await p.worker();
      const day = await p.template("Day", "09:00", "17:00");
      await p.cover(MON, TUE, [{ date: MON, templateId: day, count: 1, underWeight: 100 }]);
      const g = await p.generate({ startDate: MON, endDate: TUE, limits: [{ staffId: ann.id, minMinutes: 1440 }] });
      expect(g.status).toBe("FAILED");
      expect(g.error).toMatch(/MIN_MINUTES/);
      expect(g.result!.hardViolations).toEqual([expect.objectContaining({ workerId: ann.id, rule: "MIN_MINUTES" })]);
      expect(g.result!.draftIds).toEqual([]);
      expect(await p.drafts(MON, TUE)).toEqual([]);
    });
  });

  it("cancels a queued generation and a running one, which then writes nothing", async () => {
    const p = await generationPlace(t, "Cancelled");
    for (let i = 0; i < 6; i++) await p.worker();
    const day = await p.template("Day", "09:00", "17:00");
    await p.cover(MON, "2026-04-19", [{ date: MON, templateId: day, count: 3 }]);
    const api = t.as(p.manager);
    const generations = `/api/organizations/${p.org.id}/schedule-generations`;
    const queued = await api.post(`${p.base}/schedules/generate`, { startDate: MON, endDate: "2026-04-19" });
    const cancelled = await api.post(`${generations}/${queued.body.id}/cancel`);
    expect(cancelled.body).toMatchObject({ status: "CANCELLED", cancelRequested: true });
    expect(await t.runtime.services.scheduleGenerations.runNext()).toBeNull();
    expect((await api.post(`${generations}/${queued.body.id}/cancel`)).status).toBe(409);

    const long = await api.post(`${p.base}/schedules/generate`, { startDate: MON, endDate: "2026-04-19", timeLimitSeconds: 60 });
    const running = t.runtime.services.scheduleGenerations.runNext();
    for (let i = 0; i < 200 && (await api.get(`${generations}/${long.body.id}`)).body.status !== "RUNNING"; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await api.post(`${generations}/${long.body.id}/cancel`)).body).toMatchObject({ status: "RUNNING", cancelRequested: true });
    await running;
    const ended = (await api.get(`${generations}/${long.body.id}`)).body;
    expect(ended).toMatchObject({ status: "CANCELLED", result: null });
    expect(await p.drafts(MON, "2026-04-19")).toEqual([]);
    const events = await t.as(p.org.token).get(`/api/organizations/${p.org.id}/events?types=schedule.generation.completed`);
    expect(events.body.map((e: { data: { object: { status: string } } }) => e.data.object.status).sort()).toEqual(["CANCELLED", "CANCELLED"]);
  });

  it("answers through GraphQL too, and refuses bad requests before queueing", async () => {
    const p = await generationPlace(t, "GraphQL");
    await p.worker();
    const day = await p.template("Day", "09:00", "17:00");
    await p.cover(MON, MON, [{ date: MON, templateId: day, count: 1 }]);
    const queued = await t.gql(
      p.manager,
      `mutation($l: ID!, $i: GenerateScheduleInput!) { generateSchedule(locationId: $l, input: $i) { id status timeLimitSeconds mode } }`,
      {
        l: p.locationId,
        i: { startDate: MON, endDate: MON, timeLimitSeconds: 1 },
      },
    );
    expect(queued.data?.generateSchedule).toMatchObject({ status: "QUEUED", timeLimitSeconds: 1, mode: "FILL" });
    await t.runtime.services.scheduleGenerations.runNext();
    const read = await t.gql(p.manager, `query($id: ID!) { scheduleGeneration(id: $id) { status result { objective draftIds coverage { assigned } } } }`, {
      id: queued.data!.generateSchedule.id,
    });
    expect(read.data?.scheduleGeneration).toMatchObject({ status: "SUCCEEDED", result: { objective: 0, coverage: [{ assigned: 1 }] } });

    const api = t.as(p.manager);
    expect((await api.post(`${p.base}/schedules/generate`, { startDate: TUE, endDate: MON })).status).toBe(400);
    expect((await api.post(`${p.base}/schedules/generate`, { startDate: MON, endDate: TUE, timeLimitSeconds: 601 })).status).toBe(400);
    expect(
      (await api.post(`${p.base}/schedules/generate`, { startDate: MON, endDate: TUE, defaultLimits: { maxShifts: [{ templateId: p.locationId, max: 1 }] } }))
        .status,
    ).toBe(404);
    const worker = await p.worker();
    expect((await t.as(worker.token).post(`${p.base}/schedules/generate`, { startDate: MON, endDate: TUE })).status).toBe(403);
    expect(await t.runtime.services.scheduleGenerations.runNext()).toBeNull();
  });
});

describe("a generation the service runs as soon as it is queued", () => {
  let t: TestService;
  beforeAll(async () => (t = await TestService.start({ env: { SCHEDULED_JOBS: "on" } })));
  afterAll(() => t.stop());

  it("runs as no request's work: the process runs whichever generation is oldest, so its drafts are recorded under no caller", async () => {
    const p = await generationPlace(t, "Queued");
    await p.worker();
    const day = await p.template("Day", "09:00", "17:00");
    await p.cover(MON, MON, [{ date: MON, templateId: day, count: 1 }]);
    const api = t.as(p.manager);
    const queued = await api.post(`${p.base}/schedules/generate`, { startDate: MON, endDate: MON, timeLimitSeconds: 1 });
    expect(queued.status).toBe(202);
    const generation = `/api/organizations/${p.org.id}/schedule-generations/${queued.body.id}`;
    await until(async () => (await api.get(generation)).body.status === "SUCCEEDED");
    const [draftId] = (await api.get(generation)).body.result.draftIds;
    const trail = await t.as(p.org.token).get(`/api/organizations/${p.org.id}/audit-events?resourceType=schedule_drafts&resourceId=${draftId}`);
    expect(trail.body).toEqual([expect.objectContaining({ action: "insert", actorStaffId: null, actorApiKeyId: null })]);
    // The generation itself was asked for by the manager, and says so.
    const asked = await t.as(p.org.token).get(`/api/organizations/${p.org.id}/audit-events?resourceType=schedule_generations&resourceId=${queued.body.id}`);
    expect(asked.body.at(-1)).toMatchObject({ action: "insert", actorStaffId: expect.any(String) });
  });
});
