import { availabilityWindows } from "../../src/modules/availability";
import { TestService } from "../support/harness";
import { activePolicy, scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";

/**
 * Availability rules of a New York location, on Monday 2026-03-02. Daylight saving time starts on
 * Sunday 2026-03-08 (02:00 → 03:00): a weekly rule keeps its wall time across it.
 */
describe("availability rules and the resolved view", () => {
  let t: TestService;
  let w: ScheduleWorkplace;
  let org: string;
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-03-02T17:00:00.000Z" });
    w = await scheduleWorkplace(t, "Availability Diner");
    org = `/api/organizations/${w.org.id}`;
  });
  afterAll(() => t.stop());

  const view = async (token: string, staffId: string, startDate: string, endDate: string) => {
    const res = await t.as(token).get(`${org}/availability?startDate=${startDate}&endDate=${endDate}&locationId=${w.locationId}&staffId=${staffId}`);
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body as {
      date: string;
      available: boolean;
      unavailable: { startTime: string; endTime: string; source: string }[];
      preferences: { kind: string; startTime: string; weight: number }[];
    }[];
  };

  it("keeps a weekly rule's wall time across the change to daylight saving time", async () => {
    const ann = await w.worker();
    const created = await t.as(ann.token).post(`${org}/staff/${ann.id}/availability`, {
      kind: "UNAVAILABLE",
      weekdays: ["SAT", "SUN", "MON"],
      startTime: "18:00",
      endTime: "22:00",
      effectiveFrom: "2026-03-07",
      effectiveUntil: "2026-03-09",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      staffId: ann.id,
      kind: "UNAVAILABLE",
      weekdays: ["SAT", "SUN", "MON"],
      startTime: "18:00",
      endTime: "22:00",
      status: "APPROVED",
      weight: 1,
    });
    const days = await view(w.manager, ann.id, "2026-03-06", "2026-03-10");
    expect(days.map((d) => [d.date, d.unavailable.map((u) => [u.startTime, u.endTime])])).toEqual([
      ["2026-03-06", []],
      ["2026-03-07", [["2026-03-07T18:00:00.000-05:00", "2026-03-07T22:00:00.000-05:00"]]],
      ["2026-03-08", [["2026-03-08T18:00:00.000-04:00", "2026-03-08T22:00:00.000-04:00"]]],
      ["2026-03-09", [["2026-03-09T18:00:00.000-04:00", "2026-03-09T22:00:00.000-04:00"]]],
      ["2026-03-10", []],
    ]);
    expect(days.every((d) => d.available)).toBe(true);
  });

  it("runs a window whose end is before its start past midnight, into the next day", async () => {
    const bob = await w.worker();
    const created = await t
      .as(w.manager)
      .post(`${org}/staff/${bob.id}/availability`, { kind: "UNAVAILABLE", date: "2026-03-10", startTime: "22:00", endTime: "06:00" });
    expect(created.status).toBe(201);
    const days = await view(bob.token, bob.id, "2026-03-10", "2026-03-11");
    const window = ["2026-03-10T22:00:00.000-04:00", "2026-03-11T06:00:00.000-04:00"];
    expect(days.map((d) => d.unavailable.map((u) => [u.startTime, u.endTime]))).toEqual([[window], [window]]);
    const windows = await availabilityWindows(t.runtime.db.manager, {
      organizationId: w.org.id,
      staffIds: [bob.id],
      from: new Date("2026-03-11T05:00:00.000Z"),
      until: new Date("2026-03-11T09:00:00.000Z"),
      timeZone: "America/New_York",
    });
    expect(windows).toEqual([
      expect.objectContaining({
        staffId: bob.id,
        kind: "UNAVAILABLE",
        source: "RULE",
        date: "2026-03-10",
        start: new Date("2026-03-11T02:00:00.000Z"),
        end: new Date("2026-03-11T10:00:00.000Z"),
      }),
    ]);
  });

  it("counts a worker's rule only once approved when the organization asks for approval", async () => {
    const cy = await w.worker();
    const settings = await t.as(w.manager).patch(`${org}/availability-settings`, { availabilityRequiresApproval: true });
    expect(settings.body).toEqual({ organizationId: w.org.id, availabilityRequiresApproval: true });
    try {
      const pending = await t.as(cy.token).post(`${org}/staff/${cy.id}/availability`, { kind: "UNAVAILABLE", date: "2026-03-12" });
      expect(pending.body.status).toBe("PENDING");
      expect((await view(cy.token, cy.id, "2026-03-12", "2026-03-12"))[0]).toMatchObject({ available: true, unavailable: [] });
      expect((await t.as(cy.token).post(`${org}/staff/${cy.id}/availability/${pending.body.id}/approve`)).status).toBe(403);
      const approved = await t.as(w.manager).post(`${org}/staff/${cy.id}/availability/${pending.body.id}/approve`);
      expect(approved.body).toMatchObject({ status: "APPROVED", decidedAt: "2026-03-02T17:00:00.000Z" });
      expect((await view(cy.token, cy.id, "2026-03-12", "2026-03-12"))[0]).toMatchObject({
        available: false,
        unavailable: [{ source: "RULE", startTime: "2026-03-12T00:00:00.000-04:00", endTime: "2026-03-13T00:00:00.000-04:00" }],
      });
      const again = await t.as(w.manager).post(`${org}/staff/${cy.id}/availability/${pending.body.id}/decline`);
      expect([again.status, again.body.error.code]).toEqual([409, "CONFLICT"]);
      // A manager's rule counts at once; a worker's change of an approved rule waits again.
      const managers = await t.as(w.manager).post(`${org}/staff/${cy.id}/availability`, { kind: "PREFER_OFF", date: "2026-03-13", weight: 40 });
      expect(managers.body.status).toBe("APPROVED");
      const changed = await t.as(cy.token).patch(`${org}/staff/${cy.id}/availability/${managers.body.id}`, { weight: 60 });
      expect(changed.body).toMatchObject({ status: "PENDING", weight: 60 });
      const declined = await t.as(w.manager).post(`${org}/staff/${cy.id}/availability/${managers.body.id}/decline`);
      expect(declined.body.status).toBe("DECLINED");
      expect((await view(cy.token, cy.id, "2026-03-13", "2026-03-13"))[0].preferences).toEqual([]);
      const events = await t.runtime.db.query(
        "SELECT type FROM events WHERE organization_id = $1 AND type LIKE 'availability_rule.%' AND object->>'worker_id' = $2 ORDER BY sequence",
        [w.org.id, cy.id],
      );
      expect(events.map((e: { type: string }) => e.type)).toEqual([
        "availability_rule.created",
        "availability_rule.approved",
        "availability_rule.created",
        "availability_rule.pending",
        "availability_rule.declined",
      ]);
      const audit = await t.runtime.db.query(
        "SELECT count(*)::int AS n FROM audit_events WHERE organization_id = $1 AND resource_type = 'availability_rules'",
        [w.org.id],
      );
      expect(audit[0].n).toBeGreaterThanOrEqual(5);
    } finally {
      await t.as(w.manager).patch(`${org}/availability-settings`, { availabilityRequiresApproval: false });
    }
    const dee = await w.worker();
    expect((await t.as(dee.token).post(`${org}/staff/${dee.id}/availability`, { kind: "UNAVAILABLE", date: "2026-03-12" })).body.status).toBe("APPROVED");
  });

  it("shows approved time off as unavailable, and preferences with their weight", async () => {
    const eve = await w.worker();
    const policy = await activePolicy(t, w, { allowNegativeBalance: true, requiresApproval: false, defaultSettings: { assignedStaff: { type: "All" } } });
    const off = await t
      .as(w.manager)
      .post(`${org}/time-off-requests`, { workerId: eve.id, policyId: policy, startTime: "2026-03-16T09:00:00-04:00", endTime: "2026-03-16T13:00:00-04:00" });
    expect(off.body.status).toBe("approved");
    await t.as(eve.token).post(`${org}/staff/${eve.id}/availability`, {
      kind: "PREFER_ON",
      weekdays: ["MON"],
      startTime: "14:00",
      endTime: "20:00",
      weight: 7,
      effectiveFrom: "2026-03-16",
    });
    const [day] = await view(eve.token, eve.id, "2026-03-16", "2026-03-16");
    expect(day).toMatchObject({
      available: true,
      unavailable: [{ source: "TIME_OFF", startTime: "2026-03-16T09:00:00.000-04:00", endTime: "2026-03-16T13:00:00.000-04:00" }],
      preferences: [{ kind: "PREFER_ON", startTime: "2026-03-16T14:00:00.000-04:00", weight: 7 }],
    });
    // Before its effective range the weekly rule does not apply.
    expect((await view(eve.token, eve.id, "2026-03-09", "2026-03-09"))[0].preferences).toEqual([]);
  });

  it("keeps workers to their own rules and refuses malformed rules", async () => {
    const fay = await w.worker();
    const gus = await w.worker();
    const api = t.as(fay.token);
    expect((await api.get(`${org}/staff/${gus.id}/availability`)).status).toBe(404);
    expect((await api.post(`${org}/staff/${gus.id}/availability`, { kind: "UNAVAILABLE", date: "2026-03-12" })).status).toBe(403);
    expect((await api.get(`${org}/availability?startDate=2026-03-12&endDate=2026-03-12&staffId=${gus.id}`)).status).toBe(404);
    const mine = await api.get(`${org}/availability?startDate=2026-03-12&endDate=2026-03-12`);
    expect(mine.body.map((d: { staffId: string }) => d.staffId)).toEqual([fay.id]);
    const refused = async (body: Record<string, unknown>, field: string) => {
      const res = await api.post(`${org}/staff/${fay.id}/availability`, body);
      expect([res.status, res.body.error?.details?.[0]?.field]).toEqual([400, field]);
    };
    await refused({ kind: "UNAVAILABLE", date: "2026-03-12", weekdays: ["MON"] }, "date");
    await refused({ kind: "UNAVAILABLE" }, "date");
    await refused({ kind: "UNAVAILABLE", date: "2026-03-12", startTime: "09:00" }, "endTime");
    await refused({ kind: "UNAVAILABLE", date: "2026-03-12", startTime: "9am", endTime: "17:00" }, "startTime");
    await refused({ kind: "UNAVAILABLE", date: "2026-02-30" }, "date");
    await refused({ kind: "PREFER_ON", weekdays: ["MON"], effectiveFrom: "2026-03-10", effectiveUntil: "2026-03-09" }, "effectiveUntil");
    await refused({ kind: "UNAVAILABLE", date: "2026-03-12", templateId: "00000000-0000-4000-8000-000000000000" }, "templateId");
    await refused({ kind: "PREFER_ON", date: "2026-03-12", weight: 101 }, "weight");
    // A preference's template must be one of the organization's: any other id is unknown.
    const unknownTemplate = await api.post(`${org}/staff/${fay.id}/availability`, {
      kind: "PREFER_ON",
      date: "2026-03-12",
      templateId: "00000000-0000-4000-8000-000000000000",
    });
    expect([unknownTemplate.status, unknownTemplate.body.error?.details?.[0]?.field]).toEqual([404, "templateId"]);
  });
  it("narrows a preference only to a template of its own organization, and lets it go with the template", async () => {
    const hal = await w.worker();
    const api = t.as(w.manager);
    const template = async (place: ScheduleWorkplace) =>
      (
        await t.as(place.manager).post(`/api/organizations/${place.org.id}/locations/${place.locationId}/shift-templates`, {
          name: "Opening",
          roleId: place.roleId,
          startTime: "07:00",
          endTime: "15:00",
        })
      ).body.id as string;
    const own = await template(w);
    const foreign = await template(await scheduleWorkplace(t, "Other Diner"));
    const prefer = (templateId: string) => ({ kind: "PREFER_ON", date: "2026-03-12", templateId });
    for (const templateId of [foreign, "00000000-0000-4000-8000-000000000000"]) {
      const res = await api.post(`${org}/staff/${hal.id}/availability`, prefer(templateId));
      expect([res.status, res.body.error?.details?.[0]?.field]).toEqual([404, "templateId"]);
      const gql = await t.gql(w.manager, `mutation($s: ID!, $i: CreateAvailabilityRuleInput!) { createAvailabilityRule(staffId: $s, input: $i) { id } }`, {
        s: hal.id,
        i: prefer(templateId),
      });
      expect(gql.errors?.[0].extensions.code).toBe("NOT_FOUND");
    }
    const rule = await api.post(`${org}/staff/${hal.id}/availability`, prefer(own));
    expect([rule.status, rule.body.templateId]).toEqual([201, own]);
    expect((await api.patch(`${org}/staff/${hal.id}/availability/${rule.body.id}`, { templateId: foreign })).status).toBe(404);
    expect((await api.delete(`${org}/locations/${w.locationId}/shift-templates/${own}`)).status).toBe(204);
    expect((await api.get(`${org}/staff/${hal.id}/availability/${rule.body.id}`)).status).toBe(404);
  });
});
