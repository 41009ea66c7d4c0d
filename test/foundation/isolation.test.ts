import { restRoutes } from "../../src/app/modules";
import { TestOrganization, TestService } from "../support/harness";
import { fillPath, victimRecords } from "../support/records";

/**
 * A valid body for the paths that check their body before the records they name, so that the
 * call reaches the lookup; the others get an empty one.
 */
function bodyFor(method: string, path: string, ids: Record<string, string>): object {
  const bodies: [RegExp, object][] = [
    [/^POST .*\/breaks$/, { name: "Break", durationMinutes: 30, frequencyMinutes: 0, paid: false, mandatory: false, enabled: true }],
    [/^(POST|PATCH) .*\/notes(\/\{noteId\})?$/, { text: "Note" }],
    [/^POST .*\/schedules$/, { workerId: ids.staff, roleId: ids.role, startTime: "2026-03-20T09:00:00Z", endTime: "2026-03-20T17:00:00Z" }],
    [/^POST .*\/schedules\/bulk-copy$/, { sourceStartDate: "2026-03-10", sourceEndDate: "2026-03-10", targetStartDate: "2026-03-17" }],
    [/^POST .*\/schedules\/publish$/, { startDate: "2026-03-10", endDate: "2026-03-10" }],
    [/^POST .*\/open-shifts$/, { roleId: ids.role, startDate: "2026-03-12T09:00:00Z", endDate: "2026-03-12T17:00:00Z", staffCountRequired: 1 }],
    [/^POST .*\/bulk-assign$/, { preferenceIds: [ids.preference] }],
    [/^POST .*\/\{id\}\/(claim|retract)$/, { workerId: ids.staff }],
    [/^POST .*\/preferences$/, { workerId: ids.staff, preference: "PREFERRED" }],
    [/^PATCH .*\/preferences\/\{preferenceId\}$/, { preference: "PREFERRED" }],
    [/^POST .*\/webhook-endpoints\/\{id\}\/recover$/, { since: "2026-03-01T00:00:00.000Z" }],
    [/^POST .*\/schedules\/compliance-check$/, { startDate: "2026-03-10", endDate: "2026-03-16" }],
    [/^PUT .*\/workers\/\{workerId\}\/balance$/, { hoursBalance: 8, note: "Set" }],
  ];
  return bodies.find(([pattern]) => pattern.test(`${method} ${path}`))?.[1] ?? {};
}

/**
 * Every REST path that names a record, called by another organization with its own organization
 * in the path and the victim's records in the rest, so that every lookup of a record is reached:
 * 404, no data, nothing changed. Generated from the route table, so a new path is covered the day
 * it is added. Each read first answers 200 with the caller's own records in the same places, so
 * the 404 is the tenant check's and not a path that never works.
 */
describe("tenant isolation across the REST route table", () => {
  let t: TestService;
  let victim: TestOrganization;
  let intruder: TestOrganization;
  let ids: Record<string, string>;
  let intruderIds: Record<string, string>;

  const auditCount = async () => Number((await t.runtime.db.query("SELECT count(*) AS n FROM audit_events WHERE organization_id = $1", [victim.id]))[0].n);

  beforeAll(async () => {
    t = await TestService.start();
    victim = await t.organization("Victim");
    ids = await victimRecords(t, victim);
    intruder = await t.organization("Intruder");
    intruderIds = await victimRecords(t, intruder, "Intruder's");
  });
  afterAll(() => t.stop());

  it("answers 404 to another organization's token on every path that names a record, and changes nothing", async () => {
    const routes = restRoutes.filter((r) => /\{(?!org\})\w+\}/.test(r.path));
    expect(routes.length).toBeGreaterThan(30);
    const before = await auditCount();
    const failures: string[] = [];
    for (const route of routes) {
      const method = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
      if (method === "get") {
        const own = await t.as(intruder.token).get(fillPath(route.path, intruder.id, intruderIds));
        if (own.status !== 200) failures.push(`${route.method} ${route.path} with the caller's own records → ${own.status}`);
      }
      const res = await t.as(intruder.token)[method](fillPath(route.path, intruder.id, ids), bodyFor(route.method, route.path, ids));
      if (res.status !== 404 || res.body.error?.code !== "NOT_FOUND") failures.push(`${route.method} ${route.path} → ${res.status} ${res.body.error?.code}`);
      if (/Secret/.test(JSON.stringify(res.body))) failures.push(`${route.method} ${route.path} leaked data`);
    }
    expect(failures).toEqual([]);
    expect(await auditCount()).toBe(before);
    expect((await t.as(victim.token).get(`/api/organizations/${victim.id}/locations/${ids.location}`)).body.name).toBe("Secret");
  });
});
