import { restRoutes } from "../../src/rest/routes";
import { TestOrganization, TestService } from "../support/harness";
import { fillPath, victimRecords } from "../support/records";

/**
 * Every REST path that names a record, called with a token of another organization, answers 404
 * (or 400 when its empty body is refused first) with no data and changes nothing. Generated from
 * the route table, so a new path is covered the day it is added; each path parameter is filled
 * with a real record of the victim's.
 */
describe("tenant isolation across the REST route table", () => {
  let t: TestService;
  let victim: TestOrganization;
  const ids: Record<string, string> = {};

  const auditCount = async () => Number((await t.runtime.db.query("SELECT count(*) AS n FROM audit_events WHERE organization_id = $1", [victim.id]))[0].n);

  beforeAll(async () => {
    t = await TestService.start();
    victim = await t.organization("Victim");
    Object.assign(ids, await victimRecords(t, victim));
  });
  afterAll(() => t.stop());

  it("answers 404 to another organization's token on every path that names a record, and changes nothing", async () => {
    const intruder = await t.organization("Intruder");
    const routes = restRoutes.filter((r) => /\{\w+\}/.test(r.path));
    expect(routes.length).toBeGreaterThan(30);
    const before = await auditCount();
    const failures: string[] = [];
    for (const route of routes) {
      const path = fillPath(route.path, victim.id, ids);
      const method = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
      const res = await t.as(intruder.token)[method](path, {});
      // An empty body may be refused before any record is looked at (400): that says nothing of the record.
      const refusedInput = res.status === 400 && res.body.error?.code === "VALIDATION_FAILED";
      if (res.status !== 404 && !refusedInput) failures.push(`${route.method} ${route.path} → ${res.status}`);
      if (/Secret/.test(JSON.stringify(res.body))) failures.push(`${route.method} ${route.path} leaked data`);
    }
    expect(failures).toEqual([]);
    expect(await auditCount()).toBe(before);
    expect((await t.as(victim.token).get(`/api/organizations/${victim.id}/locations/${ids.location}`)).body.name).toBe("Secret");
  });
});
