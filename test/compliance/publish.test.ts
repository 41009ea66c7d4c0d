import { TestService } from "../support/harness";
import { scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";

/**
 * Publishing and single writes under the labor rules of an Oregon location (US_OR, 12-hour longest
 * shift of its own), on Friday 2026-03-06 at noon New York time: shifts of the week of Monday
 * 2026-03-09 are inside the 14-day notice window. The cook's wage is $20.
 */
describe("publishing and writing entries under the labor rules", () => {
  let t: TestService;
  let w: ScheduleWorkplace;
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-03-06T17:00:00.000Z" });
    w = await scheduleWorkplace(t, "Portland Diner");
    const profile = await t.as(w.org.token).patch(`${w.base}/compliance`, { preset: "US_OR", maxShiftHours: 12 });
    if (profile.status !== 200) throw new Error(JSON.stringify(profile.body));
  });
  afterAll(() => t.stop());

  const shift = (workerId: string, day: string, from: string, to: string) => ({
    workerId,
    roleId: w.roleId,
    startTime: `${day}T${from}:00`,
    endTime: `${day}T${to}:00`,
  });
  const payOf = async (workerId: string) =>
    t.runtime.db.query(
      "SELECT entry_id, change, hours::float AS hours, amount::float AS amount, citation FROM predictability_pay WHERE organization_id = $1 AND worker_id = $2 ORDER BY created_at, change",
      [w.org.id, workerId],
    );

  it("refuses a range with errors (409 COMPLIANCE_VIOLATION, the violations in details) and publishes nothing", async () => {
    const ann = await w.worker();
    const api = t.as(w.manager);
    const draft = (await api.post(`${w.base}/schedules/drafts`, shift(ann.id, "2026-03-14", "09:00", "22:00"))).body;
    expect(draft.violations).toEqual([
      expect.objectContaining({ ruleId: "MAX_SHIFT_LENGTH", severity: "error", entryIds: [draft.id] }),
      expect.objectContaining({ ruleId: "NOTICE_WINDOW", severity: "warning", entryIds: [draft.id], premium: { hours: 1, amount: 20 } }),
    ]);

    const refused = await api.post(`${w.base}/schedules/publish`, { startDate: "2026-03-09", endDate: "2026-03-15" });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("COMPLIANCE_VIOLATION");
    expect(refused.body.error.details).toEqual([
      {
        field: "violations.0",
        message: "The shift starting 2026-03-14T09:00:00.000-04:00 lasts 13 h; the longest allowed is 12 h",
        ruleId: "MAX_SHIFT_LENGTH",
        severity: "error",
        workerId: ann.id,
        entryIds: [draft.id],
        citation: "Location compliance profile",
        premium: null,
      },
    ]);
    const gql = await t.gql(
      w.manager,
      `mutation($loc: ID!) { publishSchedule(locationId: $loc, input: {startDate: "2026-03-09", endDate: "2026-03-15"}) { startDate } }`,
      { loc: w.locationId },
    );
    expect(gql.errors?.[0].extensions).toMatchObject({ code: "COMPLIANCE_VIOLATION", details: [expect.objectContaining({ ruleId: "MAX_SHIFT_LENGTH" })] });
    expect((await api.get(`${w.base}/schedules?workerId=${ann.id}`)).body).toEqual([]);
    expect((await api.get(`${w.base}/schedules/drafts?workerId=${ann.id}`)).body).toHaveLength(1);

    const noReason = await api.post(`${w.base}/schedules/publish`, { startDate: "2026-03-09", endDate: "2026-03-15", acknowledge: true });
    expect([noReason.status, noReason.body.error.details[0].field]).toEqual([400, "reason"]);
  });

  it("publishes acknowledged errors, keeps the reason and the errors in the audit trail, and records the additional shift's pay", async () => {
    const api = t.as(w.manager);
    const published = await api.post(`${w.base}/schedules/publish`, {
      startDate: "2026-03-09",
      endDate: "2026-03-15",
      acknowledge: true,
      reason: "Inventory day, agreed with the cook",
    });
    expect(published.status).toBe(200);
    expect(published.body.added).toHaveLength(1);
    const ann = published.body.added[0].workerId;
    // ORS 653.455(2)(a)(C): an additional shift with 8 days' notice: one hour at $20.
    expect(published.body.violations.map((v: { ruleId: string; severity: string }) => [v.ruleId, v.severity])).toEqual([
      ["MAX_SHIFT_LENGTH", "error"],
      ["NOTICE_WINDOW", "warning"],
    ]);
    const audit = await t.runtime.db.query(
      "SELECT actor_staff_id, after->>'reason' AS reason, after->'violations'->0->>'ruleId' AS rule FROM audit_events WHERE organization_id = $1 AND resource_type = 'compliance_acknowledgements'",
      [w.org.id],
    );
    const [{ id: managerId }] = await t.runtime.db.query(
      "SELECT s.id FROM staff_members s JOIN access_roles a ON a.id = s.access_role_id WHERE s.organization_id = $1 AND a.name = 'Manager'",
      [w.org.id],
    );
    expect(audit).toEqual([{ actor_staff_id: managerId, reason: "Inventory day, agreed with the cook", rule: "MAX_SHIFT_LENGTH" }]);
    expect(await payOf(ann)).toEqual([{ entry_id: published.body.added[0].id, change: "ADDED", hours: 1, amount: 20, citation: "ORS 653.436, ORS 653.455" }]);
  });

  it("never blocks on warnings: a published change inside the notice window owes its pay", async () => {
    const bob = await w.worker();
    const api = t.as(w.manager);
    // Published before the location had rules: nothing owed for it.
    await t.as(w.org.token).patch(`${w.base}/compliance`, { preset: "NONE" });
    const entry = (await api.post(`${w.base}/schedules`, shift(bob.id, "2026-03-10", "09:00", "17:00"))).body;
    await t.as(w.org.token).patch(`${w.base}/compliance`, { preset: "US_OR" });
    expect(await payOf(bob.id)).toEqual([]);

    await api.post(`${w.base}/schedules/drafts`, { entryId: entry.id, startTime: "2026-03-10T10:00:00", endTime: "2026-03-10T18:00:00" });
    const published = await api.post(`${w.base}/schedules/publish`, { startDate: "2026-03-10", endDate: "2026-03-10" });
    expect(published.status).toBe(200);
    expect(published.body.violations).toEqual([expect.objectContaining({ ruleId: "NOTICE_WINDOW", severity: "warning", premium: { hours: 1, amount: 20 } })]);
    // ORS 653.455(2)(a)(B): moved with no loss of hours: one hour at $20.
    expect(await payOf(bob.id)).toEqual([{ entry_id: entry.id, change: "MOVED", hours: 1, amount: 20, citation: "ORS 653.436, ORS 653.455" }]);
  });

  it("answers an entry's violations beside it, and records the pay of direct changes and removals", async () => {
    const cal = await w.worker();
    const api = t.as(w.manager);
    const long = await api.post(`${w.base}/schedules`, shift(cal.id, "2026-03-11", "07:00", "20:00"));
    expect(long.status).toBe(201);
    expect(long.body.violations).toEqual([expect.objectContaining({ ruleId: "MAX_SHIFT_LENGTH", entryIds: [long.body.id] })]);
    // 13 h → 8 h: 5 h lost × $20 × 0.5 = $50 (ORS 653.455(2)(b)(A)); the shift no longer breaks the maximum.
    const shortened = await api.patch(`${w.base}/schedules/${long.body.id}`, { endTime: "2026-03-11T15:00:00" });
    expect(shortened.status).toBe(200);
    expect(shortened.body.violations).toEqual([]);
    // A note alone changes no hours: nothing owed.
    await api.patch(`${w.base}/schedules/${long.body.id}`, { note: "Bring the keys" });
    // Removed with 4 days' notice: 8 h × $20 × 0.5 = $80.
    expect((await api.delete(`${w.base}/schedules/${long.body.id}`)).status).toBe(204);
    expect((await payOf(cal.id)).map((r: { change: string; hours: number; amount: number }) => [r.change, r.hours, r.amount])).toEqual([
      ["ADDED", 1, 20],
      ["REDUCED", 5, 50],
      ["REDUCED", 8, 80],
    ]);
  });
});
