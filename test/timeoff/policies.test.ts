import { TestService } from "../support/harness";
import { activePolicy, timeOffWorkplace, TimeOffWorkplace } from "../support/workplace";
import { balanceOf, ledgerOf, setBalance } from "./fixtures";

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("time-off policies, worker policies and settings", () => {
  let t: TestService;
  let w: TimeOffWorkplace;
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-03-02T15:00:00.000Z" });
    w = await timeOffWorkplace(t);
  });
  afterAll(() => t.stop());
  const api = () => t.as(w.org.token);

  it("starts every organization with one policy type of each kind", async () => {
    const res = await api().get(`${w.base}/policy-types`);
    expect(res.status).toBe(200);
    expect(res.body.map((x: { type: string }) => x.type).sort()).toEqual(["Bereavement", "Holiday", "Other", "Personal", "Sick", "Unpaid", "Vacation"]);
    expect(Object.keys(res.body[0]).sort()).toEqual(["id", "name", "type"]);
  });

  it("creates a Draft policy in the shape of spec 2.2 and lists it only with fetchAllStatuses", async () => {
    const body = {
      name: "Sick leave",
      typeId: w.types.Sick,
      paid: true,
      units: "days",
      requiresApproval: true,
      allowNegativeBalance: false,
      carryoverLimit: 40,
      fullDayDuration: 7.5,
      limitSettings: { isFixedAmount: true, fixedAmount: { hours: 52, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Sunday" } },
      defaultSettings: { assignedStaff: { type: "Role", value: w.roleId } },
    };
    const created = await api().post(`${w.base}/policies`, body);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      organizationId: w.org.id,
      name: "Sick leave",
      allowNegativeBalance: false,
      assignedStaffCount: 1,
      carryoverLimit: 40,
      defaultSettings: { assignedStaff: { type: "Role", value: w.roleId } },
      fullDayDuration: 7.5,
      limitSettings: {
        isFixedAmount: true,
        fixedAmount: { hours: 52, daysEarned: null, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Sunday", accrualDate: null },
        perHourEarnings: { hoursEarned: null, hoursWorked: null, isLimitedMaximumBalance: false, maximumHoursBalance: null },
      },
      paid: true,
      requiresApproval: true,
      status: "Draft",
      type: { id: w.types.Sick, name: "Sick", type: "Sick" },
      typeId: w.types.Sick,
      units: "days",
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    const id = created.body.id;
    expect((await api().get(`${w.base}/policies`)).body.map((p: { id: string }) => p.id)).not.toContain(id);
    expect((await api().get(`${w.base}/policies?fetchAllStatuses=true`)).body.map((p: { id: string }) => p.id)).toContain(id);
    expect((await api().get(`${w.base}/policies/${id}`)).body).toEqual(created.body);
  });

  it("moves Draft → Active → Inactive → Active and refuses the other transitions with 409", async () => {
    const created = await api().post(`${w.base}/policies`, { name: "Personal", typeId: w.types.Personal });
    const id = created.body.id;
    expect((await api().patch(`${w.base}/policies/${id}/deactivate`)).status).toBe(409);
    expect((await api().patch(`${w.base}/policies/${id}/activate`)).body.status).toBe("Active");
    expect((await api().patch(`${w.base}/policies/${id}/activate`)).status).toBe(409);
    expect((await api().get(`${w.base}/policies`)).body.map((p: { id: string }) => p.id)).toContain(id);
    expect((await api().patch(`${w.base}/policies/${id}/deactivate`)).body.status).toBe("Inactive");
    expect((await api().get(`${w.base}/policies`)).body.map((p: { id: string }) => p.id)).not.toContain(id);
    expect((await api().patch(`${w.base}/policies/${id}/activate`)).body.status).toBe("Active");
  });

  it("updates with the full body of 2.4: include, exclude and set balances as ledger adjustments", async () => {
    const id = await activePolicy(t, w);
    const other = await t.staffWithToken(w.org, "Worker", { externalEmployeeId: "E-2" });
    const res = await api().patch(`${w.base}/policies/${id}`, {
      locationId: w.locationId,
      name: "Vacation 2026",
      typeId: w.types.Vacation,
      paid: true,
      units: "hours",
      limitSettings: { isFixedAmount: false, perHourEarnings: { hoursEarned: 1, hoursWorked: 30, isLimitedMaximumBalance: true, maximumHoursBalance: 80 } },
      defaultSettings: { assignedStaff: { type: "Staff", value: w.worker.id } },
      requiresApproval: false,
      carryoverLimit: 16,
      allowNegativeBalance: true,
      fullDayDuration: 8,
      workerPolicies: [
        { employee: { externalEmployeeId: "E-1", name: "ignored", payrollId: "P-1" }, hoursBalance: 24, isIncluded: true },
        { employee: { externalEmployeeId: "E-2" }, hoursBalance: 10 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Vacation 2026", requiresApproval: false, carryoverLimit: 16, allowNegativeBalance: true, assignedStaffCount: 2 });
    expect(res.body.limitSettings.perHourEarnings).toEqual({ hoursEarned: 1, hoursWorked: 30, isLimitedMaximumBalance: true, maximumHoursBalance: 80 });
    expect(await balanceOf(t, w, id, w.worker.id)).toMatchObject({ hoursBalance: 24, availableBalance: 24, isIncluded: true, name: "Vacation 2026" });
    expect(await balanceOf(t, w, id, other.staff.id)).toMatchObject({ hoursBalance: 10, isIncluded: true });

    // Setting the balance again records only the difference; excluding keeps the ledger.
    await setBalance(t, w, id, w.worker.id, 20.5);
    const excluded = await api().patch(`${w.base}/policies/${id}`, { workerPolicies: [{ workerId: other.staff.id, isIncluded: false }] });
    expect(excluded.body.assignedStaffCount).toBe(1);
    const wp = await balanceOf(t, w, id, w.worker.id);
    expect(wp.hoursBalance).toBe(20.5);
    const ledger = await ledgerOf(t, w, wp.id);
    expect(ledger.map((l) => [l.kind, l.hours])).toEqual([
      ["adjustment", 24],
      ["adjustment", -3.5],
    ]);
    expect(ledger.reduce((s, l) => s + l.hours, 0)).toBe(wp.hoursBalance);
    expect((await balanceOf(t, w, id, other.staff.id)).isIncluded).toBe(false);
  });

  it("assigns staff by defaultSettings, including staff who join or change later", async () => {
    const byRole = await activePolicy(t, w, { defaultSettings: { assignedStaff: { type: "Role", value: w.roleId } } });
    const byLocation = await activePolicy(t, w, { defaultSettings: { assignedStaff: { type: "Location", value: w.locationId } } });
    const everyone = await activePolicy(t, w, { defaultSettings: { assignedStaff: { type: "All" } } });
    const count = async (id: string) => (await api().get(`${w.base}/policies/${id}`)).body.assignedStaffCount;
    const beforeAll = await count(everyone);
    const joiner = await t.staffWithToken(w.org, "Worker", { roleIds: [w.roleId] });
    expect(await count(byRole)).toBe(2);
    expect(await count(byLocation)).toBe(1);
    expect(await count(everyone)).toBe(beforeAll + 1);
    await api().patch(`${w.base}/staff/${joiner.staff.id}`, { roleIds: [], locationIds: [w.locationId] });
    expect(await count(byRole)).toBe(1);
    expect(await count(byLocation)).toBe(2);
    await api().delete(`${w.base}/staff/${joiner.staff.id}`);
    expect(await count(byLocation)).toBe(1);
    const mine = await api().get(`${w.base}/staff/${w.worker.id}/policies`);
    expect(mine.status).toBe(200);
    expect(mine.body.map((x: { policyId: string }) => x.policyId)).toEqual(expect.arrayContaining([byRole, byLocation, everyone]));
    expect(Object.keys(mine.body[0]).sort()).toEqual(["availableBalance", "hoursBalance", "id", "isIncluded", "name", "policyId", "workerId"]);
  });

  it("refuses bad bodies with 400 naming the field, and ids that name nothing with 404 naming the field", async () => {
    const refused = (status: number) => async (body: Record<string, unknown>, field: string) => {
      const res = await api().post(`${w.base}/policies`, { name: "X", typeId: w.types.Other, ...body });
      expect(res.status).toBe(status);
      expect(JSON.stringify(res.body.error)).toContain(field);
    };
    const bad = refused(400);
    const unknown = refused(404);
    await unknown({ typeId: "00000000-0000-4000-8000-000000000000" }, "typeId");
    await bad({ typeId: "nope" }, "typeId");
    await bad({ units: "weeks" }, "units");
    await bad({ limitSettings: { isFixedAmount: true, fixedAmount: { hours: 10, accrualCycle: "Periodic" } } }, "accrualFrequency");
    await bad({ limitSettings: { isFixedAmount: true, fixedAmount: { accrualDate: "32nd" } } }, "accrualDate");
    await bad({ limitSettings: { isFixedAmount: false } }, "hoursEarned");
    await unknown({ defaultSettings: { assignedStaff: { type: "Role", value: w.locationId } } }, "defaultSettings.assignedStaff.value");
    await bad({ defaultSettings: { assignedStaff: { type: "Team" } } }, "type");
    await bad({ surprise: true }, "surprise");
  });

  it("reads and changes the organization's time-off settings; workers may read but not change them", async () => {
    const read = await api().get(`${w.base}/time-off-settings`);
    expect(read.body).toEqual({ defaultFullDayHours: 8, weekStart: "Monday", allowPastRequests: false, minimumNoticeDays: 0, workersSeeBalances: true });
    const changed = await api().patch(`${w.base}/time-off-settings`, { defaultFullDayHours: 7.5, weekStart: "Sunday" });
    expect(changed.body).toMatchObject({ defaultFullDayHours: 7.5, weekStart: "Sunday" });
    const policy = await api().post(`${w.base}/policies`, {
      name: "Defaults",
      typeId: w.types.Holiday,
      limitSettings: { isFixedAmount: true, fixedAmount: { hours: 10, accrualCycle: "Periodic", accrualFrequency: "EveryTwoWeeks" } },
    });
    expect(policy.body.fullDayDuration).toBe(7.5);
    expect(policy.body.limitSettings.fixedAmount.accrualDay).toBe("Sunday");
    expect((await t.as(w.worker.token).get(`${w.base}/time-off-settings`)).status).toBe(200);
    expect((await t.as(w.worker.token).patch(`${w.base}/time-off-settings`, { weekStart: "Monday" })).status).toBe(403);
    expect((await api().patch(`${w.base}/time-off-settings`, { weekStart: "Someday" })).status).toBe(400);
    await api().patch(`${w.base}/time-off-settings`, { defaultFullDayHours: 8, weekStart: "Monday" });
  });

  it("shows a worker only their own worker policies, and hides balances when the organization says so", async () => {
    const id = await activePolicy(t, w, { defaultSettings: { assignedStaff: { type: "All" } } });
    const mine = await t.as(w.worker.token).get(`${w.base}/worker-policies?policyId=${id}`);
    expect(mine.body.map((x: { workerId: string }) => x.workerId)).toEqual([w.worker.id]);
    expect((await t.as(w.worker.token).get(`${w.base}/staff/${w.manager.id}/policies`)).status).toBe(404);
    expect((await t.as(w.worker.token).patch(`${w.base}/policies/${id}`, { name: "Mine" })).status).toBe(403);
    await api().patch(`${w.base}/time-off-settings`, { workersSeeBalances: false });
    const hidden = await t.as(w.worker.token).get(`${w.base}/worker-policies?policyId=${id}`);
    expect(hidden.body[0]).toMatchObject({ hoursBalance: null, availableBalance: null });
    const ledger = await t.gql(w.worker.token, `query($id: ID!) { timeOffLedger(workerPolicyId: $id) { nodes { hours } } }`, { id: hidden.body[0].id });
    expect(ledger.errors?.[0].extensions.code).toBe("FORBIDDEN");
    await api().patch(`${w.base}/time-off-settings`, { workersSeeBalances: true });
  });

  it("answers 404 for another organization's policies and worker policies", async () => {
    const other = await timeOffWorkplace(t);
    const theirs = await activePolicy(t, other);
    expect((await api().get(`${w.base}/policies/${theirs}`)).status).toBe(404);
    expect((await api().patch(`${w.base}/policies/${theirs}`, { name: "Mine" })).status).toBe(404);
    expect((await api().patch(`${w.base}/policies/${theirs}/activate`)).status).toBe(404);
    expect((await api().get(`${other.base}/policies`)).status).toBe(404);
    expect((await api().get(`${w.base}/staff/${other.worker.id}/policies`)).status).toBe(404);
    expect((await api().post(`${w.base}/policies`, { name: "X", typeId: other.types.Vacation })).status).toBe(404);
  });
});
