import { CreateTimeOffPoliciesLedgerAndRequests1763900200000 } from "../../migrations/1763900200000-CreateTimeOffPoliciesLedgerAndRequests";
import { TestService } from "../support/harness";

describe("the time-off migration", () => {
  let t: TestService;
  beforeAll(async () => (t = await TestService.start()));
  afterAll(() => t.stop());

  it("gives organizations that existed before it their policy types and settings", async () => {
    const org = await t.organization("Older Co");
    await t.rerunMigration(new CreateTimeOffPoliciesLedgerAndRequests1763900200000());
    const types = await t.as(org.token).get(`/api/organizations/${org.id}/policy-types`);
    expect(types.body).toHaveLength(7);
    const settings = await t.as(org.token).get(`/api/organizations/${org.id}/time-off-settings`);
    expect(settings.body).toMatchObject({ defaultFullDayHours: 8, weekStart: "Monday" });
  });
});
