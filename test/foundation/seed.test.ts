import { seedDemoOrganization } from "../../src/app/demo-data";
import { TestService } from "../support/harness";

describe("demo data", () => {
  let t: TestService;
  beforeAll(async () => (t = await TestService.start()));
  afterAll(() => t.stop());

  it("loads an organization whose token answers a first query with real-looking data", async () => {
    const demo = await seedDemoOrganization(t.runtime.services, t.clock.now());
    const res = await t.gql(demo.token, "{ organization { name } locations { nodes { name timezone } } staffMembers { nodes { name roles { name } } } }");
    expect(res.errors).toBeUndefined();
    expect(res.data?.organization.name).toBe(demo.name);
    expect(res.data?.locations.nodes.map((l: { timezone: string }) => l.timezone).sort()).toEqual(["America/New_York", "Europe/Berlin"]);
    expect(res.data?.staffMembers.nodes.length).toBe(12);
    // Last week (the clock stands on Monday 2026-03-02): 12 staff × 5 days.
    const week = await t.gql(demo.token, '{ timesheets(startDate: "2026-02-23", endDate: "2026-03-01") { shifts { id } totals { duration } } }');
    expect(week.errors).toBeUndefined();
    expect(week.data?.timesheets.shifts).toHaveLength(60);
    expect(week.data?.timesheets.totals.duration).toBe(60 * 480);
    const requests = await t.as(demo.token).get(`/api/organizations/${demo.organizationId}/time-off-requests`);
    expect(requests.body.map((r: { status: string }) => r.status).sort()).toEqual(["approved", "approved", "pending", "pending"]);
    const policies = await t.as(demo.token).get(`/api/organizations/${demo.organizationId}/policies`);
    expect(policies.body.map((p: { name: string; assignedStaffCount: number }) => [p.name, p.assignedStaffCount]).sort()).toEqual([
      ["Sick leave", 12],
      ["Vacation", 12],
    ]);
  });
});
