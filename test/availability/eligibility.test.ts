import { ELIGIBILITY_FIELDS } from "../../src/modules/availability";
import { TestService } from "../support/harness";
import { countStatements, planOf } from "../support/statements";
import { activePolicy, scheduleWorkplace, ScheduleWorkplace } from "../support/workplace";

/**
 * Eligibility at an Oregon location (US_OR: 10 h rest at 1.5×, 14 days' notice, one hour of pay
 * for a change inside it) with limits of its own (10 h a day, 40 h a week), on Friday 2026-03-06
 * at noon New York time. The shift asked about: Thursday 2026-03-12, 07:00–15:00, the cook's role
 * ($20). Each worker is set up to show one reason; `ok` shows none.
 */
describe("eligibility with reasons", () => {
  let t: TestService;
  let w: ScheduleWorkplace;
  let org: string;
  const people: Record<string, { id: string; token: string }> = {};
  const shift = { startTime: "2026-03-12T07:00:00", endTime: "2026-03-12T15:00:00" };
  const entry = (workerId: string, day: string, from: string, to: string) => ({
    workerId,
    roleId: w.roleId,
    startTime: `${day}T${from}:00`,
    endTime: `${day}T${to}:00`,
  });

  beforeAll(async () => {
    t = await TestService.start({ now: "2026-03-06T17:00:00.000Z" });
    w = await scheduleWorkplace(t, "Eligibility Diner");
    org = `/api/organizations/${w.org.id}`;
    const api = t.as(w.manager);
    expect((await api.patch(`${w.base}/compliance`, { preset: "US_OR", maxDailyHours: 10, maxWeeklyHours: 40 })).status).toBe(200);
    for (const name of ["ok", "inactive", "unavailable", "timeOff", "overlap", "daily", "lunch", "weekly", "rest", "preferOff"])
      people[name] = await w.worker({ name });
    people.role = await w.worker({ name: "role", roleIds: [] });
    people.location = await w.worker({ name: "location", locationIds: [] });
    const must = async (res: Promise<{ status: number; body: unknown }>, status = 201) => {
      const r = await res;
      if (r.status !== status) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    };
    await must(api.patch(`${org}/staff/${people.inactive.id}`, { active: false }), 200);
    await must(
      api.post(`${org}/staff/${people.unavailable.id}/availability`, { kind: "UNAVAILABLE", date: "2026-03-12", startTime: "06:00", endTime: "09:00" }),
    );
    const policy = await activePolicy(t, w, { allowNegativeBalance: true, requiresApproval: false, defaultSettings: { assignedStaff: { type: "All" } } });
    await must(
      api.post(`${org}/time-off-requests`, {
        workerId: people.timeOff.id,
        policyId: policy,
        startTime: "2026-03-12T00:00:00-04:00",
        endTime: "2026-03-13T00:00:00-04:00",
        isAllDay: true,
      }),
    );
    await must(api.post(`${w.base}/schedules`, entry(people.overlap.id, "2026-03-12", "14:00", "16:00")));
    await must(api.post(`${w.base}/schedules`, entry(people.daily.id, "2026-03-12", "16:00", "21:00")));
    // 2¼ h with a 30-minute unpaid lunch: 9¾ h of work with the shift, within the 10 h a day (10¼ h counting the lunch).
    await must(
      api.post(`${w.base}/schedules`, {
        ...entry(people.lunch.id, "2026-03-12", "16:00", "18:15"),
        breaks: [{ typeId: w.breakTypeId, startTime: "2026-03-12T17:00:00" }],
      }),
    );
    for (const day of ["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-13"])
      await must(api.post(`${w.base}/schedules`, entry(people.weekly.id, day, "08:00", "18:00")));
    await must(api.post(`${w.base}/schedules`, entry(people.rest.id, "2026-03-11", "15:00", "23:00")));
    await must(api.post(`${org}/staff/${people.preferOff.id}/availability`, { kind: "PREFER_OFF", weekdays: ["THU"], weight: 30 }));
  });
  afterAll(() => t.stop());

  const ask = async (staffIds?: string[]) => {
    const res = await t.as(w.manager).post(`${org}/eligibility`, { locationId: w.locationId, roleId: w.roleId, ...shift, ...(staffIds ? { staffIds } : {}) });
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body as {
      staffId: string;
      eligible: boolean;
      reasons: { code: string; message: string; sourceId: string | null }[];
      warnings: { code: string; hours: number | null; amount: number | null }[];
      premiums: { ruleId: string; hours: number; amount: number; citation: string }[];
    }[];
  };
  const notice = { ruleId: "NOTICE_WINDOW", hours: 1, amount: 20, citation: "ORS 653.436, ORS 653.455" };

  it("answers every reason code, each beside a person otherwise like the eligible one", async () => {
    const answers = await ask(Object.values(people).map((p) => p.id));
    const of = (name: string) => answers.find((a) => a.staffId === people[name].id)!;
    const codes = (name: string) => of(name).reasons.map((r) => r.code);
    expect(of("ok")).toEqual({
      staffId: people.ok.id,
      eligible: true,
      reasons: [],
      warnings: [expect.objectContaining({ code: "NOTICE_WINDOW", hours: 1, amount: 20 })],
      premiums: [notice],
    });
    expect(codes("inactive")).toEqual(["INACTIVE"]);
    expect(codes("role")).toEqual(["ROLE"]);
    expect(codes("location")).toEqual(["LOCATION"]);
    expect(of("unavailable").reasons).toEqual([
      expect.objectContaining({
        code: "UNAVAILABLE",
        message: "The worker is unavailable from 2026-03-12T06:00:00.000-04:00 to 2026-03-12T09:00:00.000-04:00",
      }),
    ]);
    expect(codes("timeOff")).toEqual(["TIME_OFF"]);
    expect(of("overlap").reasons).toEqual([expect.objectContaining({ code: "OVERLAP", message: expect.stringMatching(/overlaps the shift/) })]);
    expect(of("daily").reasons).toEqual([
      expect.objectContaining({ code: "MAX_DAILY_HOURS", message: expect.stringContaining("13 h of work planned on 2026-03-12; the most allowed is 10 h") }),
    ]);
    expect(of("weekly").reasons).toEqual([
      expect.objectContaining({ code: "MAX_WEEKLY_HOURS", message: expect.stringContaining("48 h of work planned in the workweek") }),
    ]);
    expect(codes("lunch")).toEqual([]);
    for (const name of Object.keys(people)) expect([name, of(name).eligible]).toEqual([name, ["ok", "lunch", "rest", "preferOff"].includes(name)]);
    // Warnings keep a person eligible: 8 h of rest where Oregon asks 10; the 2 h inside it at half again $20 = $20.
    expect(of("rest").warnings.map((x) => [x.code, x.hours, x.amount])).toEqual([
      ["REST_BETWEEN_SHIFTS", 2, 20],
      ["NOTICE_WINDOW", 1, 20],
    ]);
    expect(of("rest").premiums).toEqual([{ ruleId: "REST_BETWEEN_SHIFTS", hours: 2, amount: 20, citation: expect.stringContaining("653.442") }, notice]);
    expect(of("preferOff").warnings.map((x) => x.code)).toEqual(["PREFER_OFF", "NOTICE_WINDOW"]);
  });

  it("answers every active staff member by default, and the same through GraphQL", async () => {
    const all = await ask();
    expect(all.map((a) => a.staffId)).not.toContain(people.inactive.id);
    expect(all.map((a) => a.staffId)).toContain(people.ok.id);
    const gql = await t.gql(w.manager, `query($input: EligibilityInput!) { eligibility(input: $input) { staffId eligible reasons { code } } }`, {
      input: { locationId: w.locationId, roleId: w.roleId, ...shift, staffIds: [people.weekly.id] },
    });
    expect(gql.data!.eligibility).toEqual([{ staffId: people.weekly.id, eligible: false, reasons: [{ code: "MAX_WEEKLY_HOURS" }] }]);
    const bad = await t
      .as(w.manager)
      .post(`${org}/eligibility`, { locationId: w.locationId, roleId: w.roleId, startTime: shift.endTime, endTime: shift.startTime });
    expect([bad.status, bad.body.error.details[0].field]).toEqual([400, "endTime"]);
    const worker = await t.as(people.ok.token).post(`${org}/eligibility`, { locationId: w.locationId, roleId: w.roleId, ...shift });
    expect(worker.status).toBe(403);
  });

  it("answers everyone as it answers the same people named, wages, roles and locations alike", async () => {
    const everyone = await ask();
    const active: { id: string }[] = await t.runtime.db.query("SELECT id FROM staff_members WHERE organization_id = $1 AND active AND deleted_at IS NULL", [
      w.org.id,
    ]);
    expect(everyone.map((a) => a.staffId).sort()).toEqual(active.map((s) => s.id).sort());
    expect(everyone).toEqual(await ask(active.map((s) => s.id)));
    // Both forms read the role, the location and the wage (the premiums' amounts) of each.
    const of = (name: string) => everyone.find((a) => a.staffId === people[name].id)!;
    expect([of("ok").premiums, of("role").reasons.map((r) => r.code), of("location").reasons.map((r) => r.code)]).toEqual([[notice], ["ROLE"], ["LOCATION"]]);
  });

  it("reads 200 staff members in a fixed number of statements", async () => {
    const count = countStatements();
    try {
      await ask();
      const few = count.count;
      for (let i = 0; i < 10; i++) await w.worker({ name: `extra ${i}` });
      const before = count.count;
      await ask();
      expect(count.count - before).toBe(few);
    } finally {
      count.stop();
    }
  });

  it("finds approved time off through the range index, however much time off was taken before", async () => {
    const veteran = await w.worker({ name: "veteran" });
    const db = t.runtime.db;
    // A day off every day for 2,000 days before the shift's week.
    await db.query(
      `INSERT INTO time_off_requests (organization_id, worker_id, policy_id, start_time, end_time, status, is_all_day, timezone, hour_configuration, total_hours, submitted_at)
       SELECT $1::uuid, $2::uuid, (SELECT id FROM time_off_policies WHERE organization_id = $1::uuid LIMIT 1),
              timestamptz '2020-08-01T04:00:00Z' + d * interval '1 day', timestamptz '2020-08-02T04:00:00Z' + d * interval '1 day',
              'approved', true, 'America/New_York', '[]', 8, now()
         FROM generate_series(0, 1999) d`,
      [w.org.id, veteran.id],
    );
    await db.query("ANALYZE time_off_requests");
    const statements = countStatements();
    const everyone = await ask();
    const sql = statements.sql;
    statements.stop();
    expect(everyone.find((p) => p.staffId === veteran.id)).toMatchObject({ eligible: true });
    const timeOff = sql.find((q) => /FROM time_off_requests\s+WHERE organization_id = \$1 AND \(\$2::uuid\[\] IS NULL/.test(q))!;
    const plan = await planOf(db, timeOff, [w.org.id, null, "2026-03-12T11:00:00Z", "2026-03-12T19:00:00Z"]);
    expect(plan).toContain('"Index Name":"ex_time_off_requests_no_overlap"');
  });

  it("answers the open shift and schedule entry paths", async () => {
    const api = t.as(w.manager);
    const open = await api.post(`${w.base}/open-shifts`, {
      roleId: w.roleId,
      startDate: "2026-03-12T07:00:00",
      endDate: "2026-03-12T15:00:00",
      staffCountRequired: 1,
    });
    const forOpen = await api.get(`${w.base}/open-shifts/${open.body.id}/eligible-staff`);
    expect(forOpen.status).toBe(200);
    expect(forOpen.body.find((a: { staffId: string }) => a.staffId === people.unavailable.id).reasons[0].code).toBe("UNAVAILABLE");
    const own = (await api.get(`${w.base}/schedules?workerId=${people.overlap.id}`)).body[0];
    const forEntry = await api.get(`${w.base}/schedules/${own.id}/eligible-staff`);
    // The entry's own worker is eligible for it: their entry is the one handed over.
    expect(forEntry.body.find((a: { staffId: string }) => a.staffId === people.overlap.id)).toMatchObject({ eligible: true, reasons: [] });
    expect((await api.get(`${w.base}/schedules/${open.body.id}/eligible-staff`)).status).toBe(404);
  });

  it("refuses claims, assignments, entries and publishing that eligibility refuses (409 NOT_ELIGIBLE, the reasons in details)", async () => {
    const api = t.as(w.manager);
    const open = await api.post(`${w.base}/open-shifts`, {
      roleId: w.roleId,
      startDate: "2026-03-12T07:00:00",
      endDate: "2026-03-12T15:00:00",
      staffCountRequired: 2,
      requireApproval: false,
    });
    expect((await api.post(`${w.base}/schedules/publish`, { startDate: "2026-03-12", endDate: "2026-03-12" })).body.openShiftIds).toContain(open.body.id);
    const claim = await t.as(people.unavailable.token).post(`${w.base}/open-shifts/${open.body.id}/claim`, {});
    expect([claim.status, claim.body.error.code]).toEqual([409, "NOT_ELIGIBLE"]);
    expect(claim.body.error.details).toEqual([expect.objectContaining({ field: "reasons.0", code: "UNAVAILABLE" })]);
    const weekly = await t.as(people.weekly.token).post(`${w.base}/open-shifts/${open.body.id}/claim`, {});
    expect(weekly.body.error.details).toEqual([expect.objectContaining({ code: "MAX_WEEKLY_HOURS" })]);
    const ok = await t.as(people.ok.token).post(`${w.base}/open-shifts/${open.body.id}/claim`, {});
    expect(ok.status).toBe(200);

    const direct = await api.post(`${w.base}/schedules`, entry(people.unavailable.id, "2026-03-12", "08:00", "12:00"));
    expect([direct.status, direct.body.error.code, direct.body.error.details[0].code]).toEqual([409, "NOT_ELIGIBLE", "UNAVAILABLE"]);
    const draftRefused = await api.post(`${w.base}/schedules/drafts`, entry(people.unavailable.id, "2026-03-12", "08:00", "12:00"));
    expect(draftRefused.body.error.code).toBe("NOT_ELIGIBLE");

    // A rule approved after the draft was written: publishing refuses it.
    const late = await w.worker({ name: "late" });
    const draft = await api.post(`${w.base}/schedules/drafts`, entry(late.id, "2026-03-20", "08:00", "12:00"));
    expect(draft.status).toBe(201);
    await api.post(`${org}/staff/${late.id}/availability`, { kind: "UNAVAILABLE", date: "2026-03-20" });
    const publish = await api.post(`${w.base}/schedules/publish`, { startDate: "2026-03-20", endDate: "2026-03-20" });
    expect([publish.status, publish.body.error.code, publish.body.error.details[0].code]).toEqual([409, "NOT_ELIGIBLE", "UNAVAILABLE"]);
  });

  // Last: it adds people every answer above would list.
  it("answers more than a hundred people in pieces, byte for byte as one serialization of the GraphQL answer gives them", async () => {
    await t.runtime.db.query(
      `INSERT INTO staff_members (organization_id, name, email, access_role_id)
       SELECT $1, 'Extra ' || g, 'extra' || g || '@diner.example', (SELECT id FROM access_roles WHERE organization_id = $1 AND name = 'Worker')
         FROM generate_series(1, 150) g`,
      [w.org.id],
    );
    const input = { locationId: w.locationId, roleId: w.roleId, ...shift };
    const rest = await t.as(w.manager).post(`${org}/eligibility`, input);
    expect(rest.status).toBe(200);
    expect(rest.body.length).toBeGreaterThan(150);
    expect(Number(rest.headers["content-length"])).toBe(Buffer.byteLength(rest.text));
    const gql = await t.gql(w.manager, `query ($input: EligibilityInput!) { eligibility(input: $input) { ${ELIGIBILITY_FIELDS} } }`, { input });
    expect(rest.text).toBe(JSON.stringify(gql.data!.eligibility));
  });
});
