import { TestService } from "../support/harness";
import { countStatements } from "../support/statements";
import { scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";

interface EventBody {
  type: string;
  sequence: number;
  data: { object: Record<string, any>; previousAttributes?: Record<string, unknown> | null };
}

/**
 * An event's object is its resource exactly as the resource's REST GET answers it: right after the
 * change, or, for a deletion, the last GET before it.
 */
describe("event objects are the resource as its GET answers it", () => {
  let t: TestService;
  let w: ScheduleWorkplace;
  const compared = new Set<string>();
  let last = 0;

  beforeAll(async () => {
    t = await TestService.start({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" } });
    w = await scheduleWorkplace(t);
    last = (await newEvents()).at(-1)?.sequence ?? 0;
  });
  afterAll(() => t.stop());

  const api = () => t.as(w.org.token);
  const org = () => `/api/organizations/${w.org.id}`;

  async function newEvents(): Promise<EventBody[]> {
    const res = await api().get(`/api/organizations/${w.org.id}/events?after=${last}&limit=200`);
    expect(res.status).toBe(200);
    return res.body;
  }

  /** Makes a change, reads `paths` right after it, and compares each event of the change with the GET of its resource. */
  async function change(action: () => Promise<{ status: number; body: any }>, paths: (body: any) => string[]) {
    const done = await action();
    expect(done.status).toBeLessThan(300);
    const answers = [];
    for (const path of paths(done.body)) {
      const read = await api().get(path);
      expect(read.status).toBe(200);
      answers.push(read.body);
    }
    const events = await newEvents();
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      const answer = answers.find((a) => a.id === event.data.object.id);
      if (!answer) continue;
      expect({ type: event.type, object: event.data.object }).toEqual({ type: event.type, object: answer });
      compared.add(event.type);
    }
    last = events.at(-1)!.sequence;
    return done.body;
  }

  /** Reads `path`, deletes it, and compares the deletion's event with that last GET. */
  async function remove(path: string, type: string) {
    const before = await api().get(path);
    expect(before.status).toBe(200);
    expect((await api().delete(path)).status).toBe(204);
    const events = (await newEvents()).filter((e) => e.type === type && e.data.object.id === before.body.id);
    expect(events).toHaveLength(1);
    expect(events[0].data.object).toEqual(before.body);
    compared.add(type);
    last = (await newEvents()).at(-1)?.sequence ?? last;
  }

  it("locations, roles, staff, break types and webhook endpoints", async () => {
    const location = await change(
      () => api().post(`${org()}/locations`, { name: "Pier", timezone: "Europe/Lisbon" }),
      (b) => [`${org()}/locations/${b.id}`],
    );
    await change(
      () => api().patch(`${org()}/locations/${location.id}`, { name: "Pier 2", address: "Cais 1" }),
      () => [`${org()}/locations/${location.id}`],
    );
    await remove(`${org()}/locations/${location.id}`, "location.deleted");

    const role = await change(
      () => api().post(`${org()}/roles`, { name: "Runner", hourlyWage: 15.5 }),
      (b) => [`${org()}/roles/${b.id}`],
    );
    await change(
      () => api().patch(`${org()}/roles/${role.id}`, { hourlyWage: 16.25 }),
      () => [`${org()}/roles/${role.id}`],
    );
    await remove(`${org()}/roles/${role.id}`, "role.deleted");

    const staff = await change(
      () => api().post(`${org()}/staff`, { name: "Ann Lee", roleIds: [w.roleId], locationIds: [w.locationId] }),
      (b) => [`${org()}/staff/${b.id}`],
    );
    await change(
      () => api().patch(`${org()}/staff/${staff.id}`, { name: "Ann Lee-Park" }),
      () => [`${org()}/staff/${staff.id}`],
    );

    const breaks = `${w.base}/breaks`;
    const type = await change(
      () => api().post(breaks, { name: "Coffee", durationMinutes: 10, frequencyMinutes: 120, paid: true, mandatory: false, enabled: true }),
      (b) => [`${breaks}/${b.id}`],
    );
    await change(
      () => api().patch(`${breaks}/${type.id}`, { durationMinutes: 15 }),
      () => [`${breaks}/${type.id}`],
    );
    await remove(`${breaks}/${type.id}`, "break_type.deleted");

    const hooks = `${org()}/webhook-endpoints`;
    const hook = await change(
      () => api().post(hooks, { url: "http://127.0.0.1:9/hooks", eventTypes: ["role.created"], enabled: false }),
      (b) => [`${hooks}/${b.id}`],
    );
    await change(
      () => api().patch(`${hooks}/${hook.id}`, { description: "payroll" }),
      () => [`${hooks}/${hook.id}`],
    );
    await remove(`${hooks}/${hook.id}`, "webhook_endpoint.deleted");
  });

  it("shifts and the time clock (a break's events carry its shift)", async () => {
    const worker = await w.worker();
    const shifts = "/api/timesheets";
    const shift = await change(
      () =>
        api().post(shifts, {
          employeeId: worker.id,
          locationId: w.locationId,
          roleId: w.roleId,
          startTime: "2026-02-20T09:00:00",
          endTime: "2026-02-20T17:00:00",
        }),
      (b) => [`${shifts}/${b.id}`],
    );
    const updated = await change(
      () => api().patch(`${shifts}/${shift.id}`, { endTime: "2026-02-20T18:00:00" }),
      () => [`${shifts}/${shift.id}`],
    );
    await remove(`${shifts}/${shift.id}`, "shift.deleted");
    // The old values are in the GET's terms too: local times with their offset.
    const [edit] = (await api().get(`${org()}/events?types=shift.updated`)).body.filter((e: EventBody) => e.data.object.id === shift.id);
    expect(edit.data.previousAttributes).toMatchObject({ endTime: "2026-02-20T17:00:00.000-05:00" });
    expect(updated.endTime).toBe("2026-02-20T18:00:00.000-05:00");

    const clock = "/api/time-tracking";
    const statements = countStatements();
    const open = await change(
      () => api().post(`${clock}/clock-in`, { workerId: worker.id, locationId: w.locationId, roleId: w.roleId, time: "2026-03-02T11:00:00Z" }),
      (b) => [`${shifts}/${b.id}`],
    ).finally(() => statements.stop());
    // A clock-in records two events of one shift: the hook reads the earlier renderings, the shift and keeps both in three statements.
    const sql = statements.sql;
    const hook = sql.slice(sql.indexOf("SAVEPOINT event_resources") + 1, sql.indexOf("COMMIT"));
    expect(sql).not.toContain("RELEASE SAVEPOINT event_resources");
    expect(hook.filter((q) => /^\s*UPDATE events/.test(q))).toHaveLength(1);
    expect(hook.filter((q) => /FROM events/.test(q))).toHaveLength(1);
    expect(hook.filter((q) => /FROM shifts/.test(q))).toHaveLength(1);
    await change(
      () => api().post(`${clock}/breaks/start`, { workerId: worker.id, typeId: w.breakTypeId, time: "2026-03-02T11:30:00Z" }),
      () => [`${shifts}/${open.id}`],
    );
    await change(
      () => api().post(`${clock}/breaks/end`, { workerId: worker.id, time: "2026-03-02T11:45:00Z" }),
      () => [`${shifts}/${open.id}`],
    );
    await change(
      () => api().post(`${clock}/clock-out`, { workerId: worker.id, time: "2026-03-02T11:55:00Z" }),
      () => [`${shifts}/${open.id}`],
    );
  });

  it("schedule entries, open shifts and time off", async () => {
    const worker = await w.worker();
    const entries = `${w.base}/schedules`;
    const entry = await change(
      () => api().post(entries, { workerId: worker.id, roleId: w.roleId, startTime: "2026-03-10T09:00:00", endTime: "2026-03-10T17:00:00" }),
      (b) => [`${entries}/${b.id}`],
    );
    await change(
      () => api().patch(`${entries}/${entry.id}`, { note: "Inventory" }),
      () => [`${entries}/${entry.id}`],
    );
    await remove(`${entries}/${entry.id}`, "schedule_entry.deleted");

    const openShifts = `${w.base}/open-shifts`;
    const openShift = await change(
      () => api().post(openShifts, { roleId: w.roleId, startDate: "2026-03-11T09:00:00", endDate: "2026-03-11T17:00:00", staffCountRequired: 2 }),
      (b) => [`${openShifts}/${b.id}`],
    );
    await change(
      () => api().patch(`${openShifts}/${openShift.id}`, { staffCountRequired: 3 }),
      () => [`${openShifts}/${openShift.id}`],
    );
    await remove(`${openShifts}/${openShift.id}`, "open_shift.deleted");

    const types = (await api().get(`${org()}/policy-types`)).body as { id: string; type: string }[];
    const policy = await change(
      () =>
        api().post(`${org()}/policies`, {
          name: "Vacation",
          typeId: types.find((x) => x.type === "Vacation")!.id,
          allowNegativeBalance: true,
          defaultSettings: { assignedStaff: { type: "Staff", value: worker.id } },
        }),
      (b) => [`${org()}/policies/${b.id}`],
    );
    await change(
      () => api().patch(`${org()}/policies/${policy.id}/activate`),
      () => [`${org()}/policies/${policy.id}`],
    );
    await change(
      () =>
        api().post(`${org()}/time-off-requests`, {
          workerId: worker.id,
          policyId: policy.id,
          startTime: "2026-03-20T09:00:00",
          endTime: "2026-03-20T17:00:00",
        }),
      (b) => [`${org()}/time-off-requests/${b.id}`],
    );
  });

  afterAll(() => {
    // Every type these changes make whose resource has a GET was compared (a type left out would be an untested mismatch).
    expect([...compared].sort()).toEqual(
      [
        "location.created",
        "location.updated",
        "location.deleted",
        "role.created",
        "role.updated",
        "role.deleted",
        "staff_member.created",
        "staff_member.updated",
        "break_type.created",
        "break_type.updated",
        "break_type.deleted",
        "webhook_endpoint.created",
        "webhook_endpoint.updated",
        "webhook_endpoint.deleted",
        "shift.created",
        "shift.updated",
        "shift.deleted",
        "timeclock.clocked_in",
        "timeclock.break_started",
        "timeclock.break_ended",
        "timeclock.clocked_out",
        "schedule_entry.created",
        "schedule_entry.updated",
        "schedule_entry.deleted",
        "open_shift.created",
        "open_shift.updated",
        "open_shift.deleted",
        "time_off_policy.created",
        "time_off_policy.updated",
        "time_off_request.created",
      ].sort(),
    );
  });
});
