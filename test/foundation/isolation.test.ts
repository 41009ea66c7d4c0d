import { restRoutes } from "../../src/rest/routes";
import { TestService } from "../support/harness";

/**
 * Every REST path under an organization, called with a token of another organization, answers
 * 404 without data: generated from the route table, so new paths are covered as they are added.
 */
describe("tenant isolation across the REST route table", () => {
  let t: TestService;
  beforeAll(async () => (t = await TestService.start()));
  afterAll(() => t.stop());

  it("answers 404 to another organization's token on every {org} path", async () => {
    const victim = await t.organization("Victim");
    const intruder = await t.organization("Intruder");
    const someId = (await t.as(victim.token).post(`/api/organizations/${victim.id}/locations`, { name: "Secret", timezone: "UTC" })).body.id;
    const routes = restRoutes.filter((r) => r.path.includes("{org}"));
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const path = route.path.replace("{org}", victim.id).replace(/\{\w+\}/g, someId);
      const api = t.as(intruder.token);
      const method = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
      const res = await api[method](path, {});
      expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({ route: `${route.method} ${route.path}`, status: 404 });
      expect(JSON.stringify(res.body)).not.toContain("Secret");
    }
    const still = await t.as(victim.token).get(`/api/organizations/${victim.id}/locations/${someId}`);
    expect(still.body.name).toBe("Secret");
  });
});
