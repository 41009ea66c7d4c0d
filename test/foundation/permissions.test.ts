import { permissionsOf } from "../../src/graphql/authorization";
import { SYSTEM_ACCESS_ROLES } from "../../src/auth/permissions";
import { graphqlSchema, restRoutes } from "../../src/app/modules";
import { operationCalling, rootFields } from "../support/graphql-arguments";
import { TestOrganization, TestService } from "../support/harness";
import { fillPath, recordIdFor, victimRecords } from "../support/records";

const WORKER = new Set(SYSTEM_ACCESS_ROLES.find((r) => r.name === "Worker")!.permissions);

/** Whether a guard (any one of its permissions suffices) refuses the Worker access role; unguarded and any-caller fields do not. */
const refusesWorker = (guard: string[] | undefined) => guard !== undefined && guard.length > 0 && !guard.some((p) => WORKER.has(p as never));

/** The guard of a route's root field, read from its GraphQL operation. */
function guardOf(operation: string): string[] | undefined {
  const m = /^\s*(query|mutation)\b[^{]*\{\s*(?:\w+\s*:\s*)?(\w+)/.exec(operation);
  return m ? permissionsOf(m[1] as "query" | "mutation", m[2]) : undefined;
}

/**
 * Every REST path whose GraphQL field needs a permission the Worker access role lacks answers a
 * Worker's token with 403, writes nothing and shows no data: generated from the route table and the
 * fields' own guards, so a new manager-only path is covered the day it is added.
 */
describe("a Worker's token on every manager's path", () => {
  let t: TestService;
  let org: TestOrganization;
  let ids: Record<string, string>;
  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization("Permissions");
    ids = await victimRecords(t, org);
  });
  afterAll(() => t.stop());

  it("answers 403 and changes nothing", async () => {
    const { token } = await t.staffWithToken(org, "Worker");
    const managerOnly = restRoutes.filter((r) => refusesWorker(guardOf(r.operation)));
    expect(managerOnly.length).toBeGreaterThan(40);
    const count = async () => Number((await t.runtime.db.query("SELECT count(*) AS n FROM audit_events WHERE organization_id = $1", [org.id]))[0].n);
    const before = await count();
    const failures: string[] = [];
    for (const route of managerOnly) {
      const method = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
      const res = await t.as(token)[method](fillPath(route.path, org.id, ids), {});
      if (res.status !== 403 || res.body.error?.code !== "FORBIDDEN") failures.push(`${route.method} ${route.path} → ${res.status}`);
      if (/Secret/.test(JSON.stringify(res.body))) failures.push(`${route.method} ${route.path} leaked data`);
    }
    expect(failures).toEqual([]);
    expect(await count()).toBe(before);
  });

  it("answers FORBIDDEN to every manager's query and mutation, with no data, and changes nothing", async () => {
    const { token } = await t.staffWithToken(org, "Worker");
    // Generated from the schema and the fields' own guards: what a Worker may call (their own time
    // clock, requests, claims) is left out by its permissions, not by a list.
    const managerOnly = rootFields().filter(([kind, field]) => refusesWorker(permissionsOf(kind, field.name)));
    expect(managerOnly.length).toBeGreaterThanOrEqual(60);
    const count = async () => Number((await t.runtime.db.query("SELECT count(*) AS n FROM audit_events WHERE organization_id = $1", [org.id]))[0].n);
    const before = await count();
    const failures: string[] = [];
    for (const [kind, field] of managerOnly) {
      // The organization's own records, each where its name says: were the guard missing, the call would act.
      const res = await t.gql(
        token,
        operationCalling(kind, field, (name) => recordIdFor(field, name, ids)),
      );
      const codes = (res.errors ?? []).map((e) => e.extensions.code);
      if (!codes.length || codes.some((c) => c !== "FORBIDDEN"))
        failures.push(`${kind} ${field.name} → ${JSON.stringify(res.errors ?? res.data).slice(0, 200)}`);
      if (Object.values(res.data ?? {}).some((v) => v !== null))
        failures.push(`${kind} ${field.name} answered data: ${JSON.stringify(res.data).slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
    expect(await count()).toBe(before);
  });

  it("lets the same Worker use the paths their role allows", async () => {
    const { token } = await t.staffWithToken(org, "Worker", { roleIds: [ids.role], locationIds: [ids.location] });
    expect((await t.as(token).get(`/api/organizations/${org.id}/locations`)).status).toBe(200);
    expect((await t.as(token).get(`/api/timesheets?startDate=2026-03-01&endDate=2026-03-07`)).status).toBe(200);
  });

  it("guards every query and mutation of the schema but the two public ones", () => {
    const schema = graphqlSchema();
    const unguarded = [
      ...Object.keys(schema.getQueryType()!.getFields()).filter((name) => permissionsOf("query", name) === undefined),
      ...Object.keys(schema.getMutationType()!.getFields()).filter((name) => permissionsOf("mutation", name) === undefined),
    ];
    expect(unguarded.sort()).toEqual(["createOrganization", "exchangeToken"]);
  });
});
