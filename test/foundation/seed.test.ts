import { seedDemoOrganization } from "../../src/app/demo-data";
import { TestService } from "../support/harness";

describe("demo data", () => {
  let t: TestService;
  beforeAll(async () => (t = await TestService.start()));
  afterAll(() => t.stop());

  it("loads an organization whose token answers a first query with real-looking data", async () => {
    const demo = await seedDemoOrganization(t.runtime.services);
    const res = await t.gql(demo.token, "{ organization { name } locations { nodes { name timezone } } staffMembers { nodes { name roles { name } } } }");
    expect(res.errors).toBeUndefined();
    expect(res.data?.organization.name).toBe(demo.name);
    expect(res.data?.locations.nodes.map((l: { timezone: string }) => l.timezone).sort()).toEqual(["America/New_York", "Europe/Berlin"]);
    expect(res.data?.staffMembers.nodes.length).toBe(12);
  });
});
