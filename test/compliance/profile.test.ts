import { TestService } from "../support/harness";
import { scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";

describe("a location's compliance profile", () => {
  let t: TestService;
  let w: ScheduleWorkplace;
  beforeAll(async () => {
    t = await TestService.start();
    w = await scheduleWorkplace(t);
  });
  afterAll(() => t.stop());

  it("follows NONE until changed: every rule off", async () => {
    const res = await t.as(w.manager).get(`${w.base}/compliance`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      locationId: w.locationId,
      preset: "NONE",
      overridden: [],
      updatedAt: null,
      minRestHours: null,
      noticeDays: null,
      dailyOvertimeHours: null,
      seventhDayRule: false,
    });
  });

  it("takes a preset's figures, overrides some, switches one off and resets them; the audit trail has each change", async () => {
    const api = t.as(w.org.token);
    const ca = await api.patch(`${w.base}/compliance`, { preset: "US_CA" });
    expect(ca.status).toBe(200);
    // Cal. Labor Code §510(a) and §512(a), docs/compliance.md.
    expect(ca.body).toMatchObject({
      preset: "US_CA",
      overridden: [],
      mealBreakAfterHours: 5,
      mealBreakMinutes: 30,
      secondMealBreakAfterHours: 10,
      mealPremiumHours: 1,
      dailyOvertimeHours: 8,
      dailyDoubleTimeHours: 12,
      weeklyOvertimeHours: 40,
      seventhDayRule: true,
      minRestHours: null,
      noticeDays: null,
    });
    const changed = await api.patch(`${w.base}/compliance`, { maxShiftHours: 12, minRestHours: 9.5, mealPremiumHours: null });
    expect(changed.body).toMatchObject({
      preset: "US_CA",
      overridden: ["maxShiftHours", "mealPremiumHours", "minRestHours"],
      maxShiftHours: 12,
      minRestHours: 9.5,
      mealPremiumHours: null,
      dailyOvertimeHours: 8,
    });
    const seattle = await api.patch(`${w.base}/compliance`, { preset: "US_WA_SEATTLE", resetFigures: ["minRestHours", "mealPremiumHours"] });
    // SMC 14.22: 10 hours of rest at time and a half, 14 days of notice, one hour / half the lost hours.
    expect(seattle.body).toMatchObject({
      preset: "US_WA_SEATTLE",
      overridden: ["maxShiftHours"],
      maxShiftHours: 12,
      minRestHours: 10,
      restPayRate: 1.5,
      noticeDays: 14,
      changePayHours: 1,
      reductionPayRate: 0.5,
      dailyOvertimeHours: null,
    });
    expect((await api.get(`${w.base}/compliance`)).body).toEqual(seattle.body);

    const audit = await t.runtime.db.query(
      "SELECT action, after->>'preset' AS preset FROM audit_events WHERE organization_id = $1 AND resource_type = 'compliance_profiles' ORDER BY occurred_at",
      [w.org.id],
    );
    expect(audit).toEqual([
      { action: "insert", preset: "US_CA" },
      { action: "update", preset: "US_CA" },
      { action: "update", preset: "US_WA_SEATTLE" },
    ]);
  });

  it("answers every preset's figures through GraphQL", async () => {
    const api = t.as(w.org.token);
    const figures: Record<string, object> = {
      // ORS 653.442(2), 653.436, 653.455(2)
      US_OR: { minRestHours: 10, restPayRate: 1.5, noticeDays: 14, changePayHours: 1, reductionPayRate: 0.5, changePayAmount: null },
      // NYC Admin. Code §20-1222(a), §20-1231
      US_NY_NYC_FAST_FOOD: {
        minRestHours: 11,
        restPremiumAmount: 100,
        noticeDays: 14,
        changePayAmount: 10,
        reductionPayAmount: 20,
        lateNoticeDays: 7,
        lateChangePayAmount: 15,
        lateReductionPayAmount: 45,
        changePayHours: null,
      },
      // Chicago Fair Workweek: 10 hours of rest at 1.25x, 14 days, one hour of predictability pay
      US_IL_CHICAGO: { minRestHours: 10, restPayRate: 1.25, noticeDays: 14, changePayHours: 1, reductionPayRate: null },
    };
    await api.patch(`${w.base}/compliance`, { resetFigures: ["maxShiftHours"] });
    for (const [preset, expected] of Object.entries(figures)) {
      await api.patch(`${w.base}/compliance`, { preset });
      const res = await t.gql(
        w.org.token,
        `query($id: ID!) { complianceProfile(locationId: $id) { preset overridden minRestHours restPayRate restPremiumAmount noticeDays changePayHours reductionPayRate changePayAmount reductionPayAmount lateNoticeDays lateChangePayAmount lateReductionPayAmount maxShiftHours } }`,
        { id: w.locationId },
      );
      expect(res.errors).toBeUndefined();
      expect(res.data?.complianceProfile).toMatchObject({ preset, overridden: [], maxShiftHours: null, ...expected });
    }
  });

  it("refuses bad figures, unknown presets and figure names, and workers", async () => {
    const api = t.as(w.org.token);
    const before = (await api.get(`${w.base}/compliance`)).body;
    const bad = [{ minRestHours: -1 }, { maxWeeklyHours: 200 }, { preset: "US_TX" }, { resetFigures: ["tips"] }, { preset: null }, { minRestHours: "ten" }];
    for (const body of bad) {
      const res = await api.patch(`${w.base}/compliance`, body);
      expect([res.status, res.body.error.code]).toEqual([400, expect.stringMatching(/VALIDATION_FAILED|BAD_REQUEST/)]);
    }
    expect((await api.get(`${w.base}/compliance`)).body).toEqual(before);
    const worker = await w.worker();
    expect((await t.as(worker.token).patch(`${w.base}/compliance`, { preset: "NONE" })).status).toBe(403);
    expect((await api.get(`/api/organizations/${w.org.id}/locations/00000000-0000-4000-8000-000000000000/compliance`)).status).toBe(404);
  });
});
