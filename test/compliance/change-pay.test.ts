import { TestOrganization, TestService } from "../support/harness";

/**
 * A change to the published schedule of a Portland location (US_OR: 14 days' notice; an added shift
 * owes one hour's pay, hours taken away half pay each), on Friday 2026-03-06, at a wage of $18.75:
 * the change's answer carries the predictability pay it just recorded.
 */
describe("predictability pay beside the changed entry", () => {
  let t: TestService;
  let org: TestOrganization;
  let roleId: string;
  let schedules: string;
  let workerId: string;

  beforeAll(async () => {
    t = await TestService.start({ now: "2026-03-06T17:00:00.000Z" });
    org = await t.organization("Change Pay Co");
    const api = t.as(org.token);
    roleId = (await api.post(`/api/organizations/${org.id}/roles`, { name: "Cook", hourlyWage: 18.75 })).body.id;
    const locationId = (await api.post(`/api/organizations/${org.id}/locations`, { name: "Portland", timezone: "America/Los_Angeles" })).body.id;
    expect((await api.patch(`/api/organizations/${org.id}/locations/${locationId}/compliance`, { preset: "US_OR" })).status).toBe(200);
    schedules = `/api/organizations/${org.id}/locations/${locationId}/schedules`;
    workerId = (await t.staffWithToken(org, "Worker", { roleIds: [roleId], locationIds: [locationId] })).staff.id;
  });
  afterAll(() => t.stop());

  const citation = expect.stringContaining("653.455");

  it("answers the pay a change inside the notice window recorded, through REST and GraphQL", async () => {
    const api = t.as(org.token);
    // Five days ahead: added, one hour at $18.75.
    const added = await api.post(schedules, { workerId, roleId, startTime: "2026-03-11T10:00:00", endTime: "2026-03-11T16:00:00" });
    expect(added.status).toBe(201);
    expect(added.body.predictabilityPay).toEqual([{ ruleId: "NOTICE_WINDOW", change: "ADDED", hours: 1, amount: 18.75, citation }]);
    // 10:00–16:00 cut to 10:00–14:00: two hours taken away at half of $18.75.
    const cut = await api.patch(`${schedules}/${added.body.id}`, { endTime: "2026-03-11T14:00:00" });
    expect([cut.status, cut.body.endTime]).toEqual([200, "2026-03-11T14:00:00.000-07:00"]);
    expect(cut.body.predictabilityPay).toEqual([{ ruleId: "NOTICE_WINDOW", change: "REDUCED", hours: 2, amount: 18.75, citation }]);
    // Moved a day later through GraphQL: one hour again; a note alone moves nothing and owes nothing.
    const update = `mutation($l: ID!, $id: ID!, $i: UpdateScheduleEntryInput!) { updateScheduleEntry(locationId: $l, id: $id, input: $i) { id predictabilityPay { ruleId change hours amount citation } } }`;
    const moved = await t.gql(org.token, update, {
      l: added.body.locationId,
      id: added.body.id,
      i: { startTime: "2026-03-12T10:00:00", endTime: "2026-03-12T14:00:00" },
    });
    expect(moved.data!.updateScheduleEntry.predictabilityPay).toEqual([{ ruleId: "NOTICE_WINDOW", change: "MOVED", hours: 1, amount: 18.75, citation }]);
    const noted = await t.gql(org.token, update, { l: added.body.locationId, id: added.body.id, i: { note: "Bring knives" } });
    expect(noted.data!.updateScheduleEntry.predictabilityPay).toEqual([]);
    // Reads answer none: the pay belongs to the change, not the entry.
    expect((await api.get(`${schedules}/${added.body.id}`)).body.predictabilityPay).toBeUndefined();
  });

  it("answers none for a change outside the notice window", async () => {
    const api = t.as(org.token);
    const added = await api.post(schedules, { workerId, roleId, startTime: "2026-04-15T10:00:00", endTime: "2026-04-15T16:00:00" });
    expect([added.status, added.body.predictabilityPay]).toEqual([201, []]);
    const cut = await api.patch(`${schedules}/${added.body.id}`, { endTime: "2026-04-15T12:00:00" });
    expect([cut.status, cut.body.predictabilityPay]).toEqual([200, []]);
  });
});
