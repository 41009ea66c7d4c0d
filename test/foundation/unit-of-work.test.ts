import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { Actor } from "../../src/auth/actor";
import { ALL_PERMISSIONS } from "../../src/auth/permissions";
import { outsideTheRequest, requestActor } from "../../src/database/request-actor";
import { Loaders, requestLoaders } from "../../src/loaders/loaders";
import { TestOrganization, TestService } from "../support/harness";

describe("unit of work", () => {
  let t: TestService;
  let org: TestOrganization;
  let actor: Actor;
  /** Marks the units of work of one test, so that its hook leaves every other one (a background job's) alone. */
  const ours = new AsyncLocalStorage<{ hookRuns: number; failWith?: (run: number) => Error | undefined }>();

  beforeAll(async () => {
    t = await TestService.start();
    org = await t.organization();
    const [key] = await t.runtime.db.query("SELECT id FROM api_keys WHERE organization_id = $1 LIMIT 1", [org.id]);
    actor = { organizationId: org.id, apiKeyId: key.id, staffId: null, permissions: new Set(ALL_PERMISSIONS) };
    t.runtime.unitOfWork.beforeCommit(async () => {
      const test = ours.getStore();
      if (!test) return;
      test.hookRuns += 1;
      const error = test.failWith?.(test.hookRuns);
      if (error) throw error;
    });
  });
  afterAll(() => t.stop());

  const auditOf = async (roleId: string) =>
    (await t.runtime.db.query("SELECT actor_api_key_id, actor_staff_id, request_id FROM audit_events WHERE resource_id = $1", [roleId]))[0];

  it("runs as no request's the work a request only sets off: recorded under no actor, reading through no request's loaders", async () => {
    const requestId = randomUUID();
    const { role, loaders } = await requestLoaders.run(new Loaders(org.id), () =>
      requestActor.run({ staffId: null, apiKeyId: actor.apiKeyId, requestId }, () =>
        outsideTheRequest(async () => ({ loaders: requestLoaders.getStore(), role: await t.runtime.services.roles.create(actor, { name: "Runner" }) })),
      ),
    );
    expect(loaders).toBeUndefined();
    expect(await auditOf(role.id)).toEqual({ actor_api_key_id: null, actor_staff_id: null, request_id: null });
  });

  it("tells the database the request's actor, and renders the change's event before it commits", async () => {
    const requestId = randomUUID();
    const role = await requestActor.run({ staffId: null, apiKeyId: actor.apiKeyId, requestId }, () =>
      t.runtime.services.roles.create(actor, { name: "Dishwasher" }),
    );
    expect(await auditOf(role.id)).toEqual({ actor_api_key_id: actor.apiKeyId, actor_staff_id: null, request_id: requestId });
    const [event] = await t.runtime.db.query("SELECT resource FROM events WHERE type = 'role.created' AND object->>'id' = $1", [role.id]);
    expect(event.resource).toMatchObject({ id: role.id, name: "Dishwasher" });

    // Work outside a request (a scheduled job's) names no actor.
    const unattended = await t.runtime.services.roles.create(actor, { name: "Porter" });
    expect(await auditOf(unattended.id)).toEqual({ actor_api_key_id: null, actor_staff_id: null, request_id: null });
  });

  it("rolls everything back when a before-commit hook fails", async () => {
    const events = async () => Number((await t.runtime.db.query("SELECT count(*) AS n FROM events WHERE organization_id = $1", [org.id]))[0].n);
    const before = await events();
    const test = { hookRuns: 0, failWith: () => new Error("the hook failed") };
    await expect(ours.run(test, () => t.runtime.services.roles.create(actor, { name: "Sommelier" }))).rejects.toThrow("the hook failed");
    expect(test.hookRuns).toBe(1);
    expect(await t.runtime.db.query("SELECT 1 FROM roles WHERE organization_id = $1 AND name = 'Sommelier'", [org.id])).toHaveLength(0);
    expect(await events()).toBe(before);
  });

  it("re-runs the whole unit, hooks included, after a serialization failure", async () => {
    let workRuns = 0;
    const serializationFailure = Object.assign(new Error("could not serialize access"), { code: "40001" });
    const test = { hookRuns: 0, failWith: (run: number) => (run === 1 ? serializationFailure : undefined) };
    const id = await ours.run(test, () =>
      t.runtime.unitOfWork.run(async (manager) => {
        workRuns += 1;
        const [row] = await manager.query("INSERT INTO roles (organization_id, name) VALUES ($1, $2) RETURNING id", [org.id, "Barista"]);
        return row.id as string;
      }),
    );
    expect({ workRuns, hookRuns: test.hookRuns }).toEqual({ workRuns: 2, hookRuns: 2 });
    expect(await t.runtime.db.query("SELECT id FROM roles WHERE organization_id = $1 AND name = 'Barista'", [org.id])).toEqual([{ id }]);
  });

  it("gives up on any other error at once", async () => {
    const test = { hookRuns: 0, failWith: () => Object.assign(new Error("no"), { code: "23505" }) };
    await expect(ours.run(test, () => t.runtime.unitOfWork.run(async () => "done"))).rejects.toThrow("no");
    expect(test.hookRuns).toBe(1);
  });
});
