import { readFileSync } from "node:fs";
import path from "node:path";
import { EVENT_TYPES } from "../../src/modules/events/event-catalog";
import { TestService } from "../support/harness";
import { workplace, Workplace } from "../support/workplace";

interface EventBody {
  id: string;
  type: string;
  sequence: number;
  occurredAt: string;
  organizationId: string;
  actor: { staffId: string | null; apiKeyId: string | null } | null;
  data: { object: Record<string, any>; previousAttributes?: Record<string, unknown> | null };
}

describe("the event log", () => {
  let t: TestService;
  let w: Workplace;
  beforeAll(async () => {
    t = await TestService.start();
    w = await workplace(t);
  });
  afterAll(() => t.stop());

  const events = async (query = "") => {
    const res = await t.as(w.org.token).get(`/api/organizations/${w.org.id}/events${query}`);
    expect(res.status).toBe(200);
    return res.body as EventBody[];
  };

  it("refuses an unknown event type in the list, as the subscription does", async () => {
    const rest = await t.as(w.org.token).get(`/api/organizations/${w.org.id}/events?types=nope,location.created`);
    expect(rest.status).toBe(400);
    expect(rest.body.error.details[0]).toMatchObject({ field: "types", message: expect.stringContaining("nope") });
    const gql = await t.gql(w.org.token, '{ events(types: ["nope"]) { nodes { id } } }');
    expect(gql.errors?.[0].extensions.code).toBe("VALIDATION_FAILED");
    expect((await t.as(w.org.token).get(`/api/organizations/${w.org.id}/events?types=location.created`)).status).toBe(200);
  });

  it("records each change as an event in commit order, with the object and the old values of what changed", async () => {
    const before = await events();
    expect(before.map((e) => e.sequence)).toEqual(before.map((_, i) => i + 1));
    expect(before.map((e) => e.type)).toEqual(expect.arrayContaining(["location.created", "role.created", "staff_member.created"]));
    const last = before[before.length - 1].sequence;

    const api = t.as(w.org.token);
    const created = await api.post("/api/timesheets", {
      employeeId: w.workerId,
      locationId: w.locationId,
      roleId: w.roleId,
      startTime: "2026-03-01T09:00:00",
      endTime: "2026-03-01T17:00:00",
    });
    expect(created.status).toBe(201);
    expect((await api.patch(`/api/timesheets/${created.body.id}`, { endTime: "2026-03-01T18:00:00" })).status).toBe(200);
    expect((await api.delete(`/api/timesheets/${created.body.id}`)).status).toBe(204);

    const after = await events(`?after=${last}&types=shift.created,shift.updated,shift.deleted`);
    expect(after.map((e) => e.type)).toEqual(["shift.created", "shift.updated", "shift.deleted"]);
    const [create, update] = after;
    expect(create).toMatchObject({
      organizationId: w.org.id,
      actor: { staffId: null, apiKeyId: expect.any(String) },
      data: { object: { id: created.body.id, employeeId: w.workerId, endTime: "2026-03-01T17:00:00.000-05:00" } },
    });
    expect(create.data.previousAttributes).toBeNull();
    expect(update.data.object.endTime).toBe("2026-03-01T18:00:00.000-05:00");
    expect(update.data.previousAttributes).toMatchObject({ endTime: "2026-03-01T17:00:00.000-05:00" });
    // A deletion carries the shift as it was last read.
    expect(after[2].data.object).toEqual(update.data.object);
    expect(new Set(after.map((e) => e.sequence)).size).toBe(3);
  });

  it("records nothing for a change that was refused or rolled back", async () => {
    const [last] = (await events("?limit=1000")).slice(-1);
    const api = t.as(w.org.token);
    const shift = { employeeId: w.workerId, locationId: w.locationId, roleId: w.roleId, startTime: "2026-02-10T09:00:00", endTime: "2026-02-10T17:00:00" };
    expect((await api.post("/api/timesheets", shift)).status).toBe(201);
    expect((await api.post("/api/timesheets", shift)).status).toBe(409);
    await t.runtime.db
      .transaction(async (m) => {
        await m.query("UPDATE roles SET name = 'Renamed' WHERE id = $1", [w.roleId]);
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect((await events(`?after=${last.sequence}`)).map((e) => e.type)).toEqual(["shift.created"]);
  });

  it("records the time clock's steps", async () => {
    const [last] = (await events()).slice(-1);
    const me = t.as(w.workerToken);
    expect((await me.post("/api/time-tracking/clock-in", { locationId: w.locationId, roleId: w.roleId })).status).toBe(201);
    t.clock.advance(30 * 60_000);
    expect((await me.post("/api/time-tracking/clock-out", {})).status).toBe(200);
    const types = (await events(`?after=${last.sequence}`)).map((e) => e.type);
    expect(types).toEqual(["shift.created", "timeclock.clocked_in", "shift.updated", "timeclock.clocked_out"]);
  });

  it("pages with a cursor, answers GraphQL, refuses workers and bad cursors, and forgets events after 30 days", async () => {
    const all = await events();
    const page = await t.as(w.org.token).get(`/api/organizations/${w.org.id}/events?limit=2`);
    expect(page.body.map((e: EventBody) => e.sequence)).toEqual([1, 2]);
    expect(page.headers["x-next-cursor"]).toBe("2");
    const gql = await t.gql(w.org.token, `{ events(first: 2, after: "2") { nodes { sequence type data { object } } pageInfo { endCursor hasNextPage } } }`);
    expect(gql.data?.events.nodes.map((e: EventBody) => e.sequence)).toEqual([3, 4]);
    expect(gql.data?.events.pageInfo).toEqual({ endCursor: "4", hasNextPage: true });
    expect((await t.as(w.workerToken).get(`/api/organizations/${w.org.id}/events`)).status).toBe(403);
    expect((await t.as(w.org.token).get(`/api/organizations/${w.org.id}/events?after=abc`)).status).toBe(400);
    const other = await t.organization("Other");
    expect((await t.as(other.token).get(`/api/organizations/${other.id}/events`)).body.map((e: EventBody) => e.organizationId)).toEqual([]);

    await t.runtime.db.query("UPDATE events SET occurred_at = $2 WHERE id = $1", [all[0].id, new Date(t.clock.now().getTime() - 31 * 86_400_000)]);
    expect(await t.runtime.services.events.prune()).toBe(1);
    expect((await events())[0].sequence).toBe(2);
  });

  it("documents every event type in docs/events.md and under the OpenAPI document's webhooks", async () => {
    const doc = readFileSync(path.join(__dirname, "../../../docs/events.md"), "utf8");
    expect(EVENT_TYPES.filter((type) => !doc.includes(`\`${type}\``))).toEqual([]);
    const openapi = await t.http.get("/api/openapi.json");
    expect(Object.keys(openapi.body.webhooks)).toEqual(expect.arrayContaining(EVENT_TYPES));
    expect(openapi.body.webhooks["shift.created"].post.requestBody.content["application/json"].schema.properties.type).toEqual({ const: "shift.created" });
  });
});
