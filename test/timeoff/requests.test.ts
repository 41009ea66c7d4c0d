import { TestService } from "../support/harness";
import { countStatements } from "../support/statements";
import { activePolicy, timeOffWorkplace, TimeOffWorkplace } from "../support/workplace";
import { balanceOf, dayOff, ledgerOf, setBalance } from "./fixtures";

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("time-off requests and approvals", () => {
  let t: TestService;
  let w: TimeOffWorkplace;
  let policyId: string;
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-03-02T15:00:00.000Z" });
    w = await timeOffWorkplace(t);
    policyId = await activePolicy(t, w, { defaultSettings: { assignedStaff: { type: "All" } } });
  });
  afterAll(() => t.stop());
  const api = () => t.as(w.org.token);
  const requests = () => `${w.base}/time-off-requests`;
  const cancelAll = async () => {
    const open = await api().get(`${requests()}?workerId=${w.worker.id}`);
    for (const r of open.body) if (r.status === "pending" || r.status === "approved") await api().delete(`${requests()}/${r.id}`);
  };

  it("files a request in the shape of spec 2.1, naming the worker by externalEmployeeId", async () => {
    await setBalance(t, w, policyId, w.worker.id, 16);
    const res = await t.as(w.manager.token).post(requests(), {
      locationId: w.locationId,
      employee: { externalEmployeeId: "E-1", name: "Whoever", payrollId: "P-1" },
      policyId,
      startTime: "2026-03-10T00:00:00-04:00",
      endTime: "2026-03-11T00:00:00-04:00",
      note: "Dentist",
      isAllDay: true,
      timezone: "America/New_York",
      utcOffset: -240,
    });
    expect(res.status).toBe(201);
    const policy = (await api().get(`${w.base}/policies/${policyId}`)).body;
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      locationId: w.locationId,
      workerId: w.worker.id,
      policyId,
      policy,
      startTime: "2026-03-10T04:00:00.000Z",
      endTime: "2026-03-11T04:00:00.000Z",
      status: "pending",
      note: "Dentist",
      hourConfiguration: [{ date: "2026-03-10", hours: 8 }],
      timezone: "America/New_York",
      utcOffset: -240,
      isAllDay: true,
      submittedAt: "2026-03-02T15:00:00.000Z",
      remainingBalance: 8,
      totalHours: 8,
      workerPolicy: { id: expect.any(String), name: policy.name, hoursBalance: 16, isIncluded: true, availableBalance: 8 },
    });
    expect(res.body.submittedAt).toMatch(ISO_UTC);
    expect((await api().get(`${requests()}/${res.body.id}`)).body).toEqual(res.body);
    await cancelAll();
  });

  it("works out hours per day, or takes them from hourConfiguration, rounded to 2 decimals", async () => {
    await setBalance(t, w, policyId, w.worker.id, 100);
    const partial = await t.as(w.worker.token).post(requests(), { policyId, startTime: "2026-03-12T13:00:00", endTime: "2026-03-13T11:20:00" });
    expect(partial.status).toBe(201);
    expect(partial.body.hourConfiguration).toEqual([
      { date: "2026-03-12", hours: 11 },
      { date: "2026-03-13", hours: 11.33 },
    ]);
    expect(partial.body.totalHours).toBe(22.33);
    expect(partial.body.utcOffset).toBe(-240);
    const configured = await t.as(w.worker.token).post(requests(), {
      ...dayOff(policyId, "2026-03-16"),
      endTime: "2026-03-18T23:59:59",
      hourConfiguration: [
        { date: "2026-03-16", hours: 4 },
        { date: "2026-03-18", hours: 2.5 },
      ],
    });
    expect(configured.body.totalHours).toBe(6.5);
    expect(configured.body.remainingBalance).toBe(71.17);
    const bad = await t.as(w.worker.token).post(requests(), { ...dayOff(policyId, "2026-03-20"), hourConfiguration: [{ date: "2026-03-21", hours: 4 }] });
    expect(bad.status).toBe(400);
    expect((await t.as(w.worker.token).post(requests(), { policyId, startTime: "2026-03-20T10:00:00", endTime: "2026-03-20T09:00:00" })).status).toBe(400);
    expect((await t.as(w.worker.token).post(requests(), { ...dayOff(policyId, "2026-03-20"), utcOffset: 60 })).status).toBe(400);
    await cancelAll();
  });

  it("goes pending → approved → cancelled and gives the hours back; the ledger sums to the balance", async () => {
    await setBalance(t, w, policyId, w.worker.id, 24);
    const filed = await t.as(w.worker.token).post(requests(), dayOff(policyId, "2026-04-01"));
    expect(filed.body).toMatchObject({ status: "pending", remainingBalance: 16 });
    const approved = await t.as(w.manager.token).post(`${requests()}/${filed.body.id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", remainingBalance: 16, workerPolicy: { hoursBalance: 16, availableBalance: 16 } });
    expect((await t.as(w.manager.token).post(`${requests()}/${filed.body.id}/approve`)).status).toBe(409);
    expect((await t.as(w.manager.token).post(`${requests()}/${filed.body.id}/decline`)).status).toBe(409);
    expect((await t.as(w.worker.token).put(`${requests()}/${filed.body.id}`, { note: "later" })).status).toBe(409);
    const cancelled = await t.as(w.worker.token).delete(`${requests()}/${filed.body.id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", workerPolicy: { hoursBalance: 24 } });
    expect((await api().delete(`${requests()}/${filed.body.id}`)).status).toBe(409);
    const wp = await balanceOf(t, w, policyId, w.worker.id);
    const ledger = await ledgerOf(t, w, wp.id);
    expect(ledger.slice(-2).map((l) => [l.kind, l.hours])).toEqual([
      ["use", -8],
      ["give_back", 8],
    ]);
    expect(ledger.reduce((s, l) => s + l.hours, 0)).toBeCloseTo(wp.hoursBalance, 6);
  });

  it("goes pending → declined with a reason, and pending → cancelled without touching the ledger", async () => {
    await setBalance(t, w, policyId, w.worker.id, 24);
    const filed = await t.as(w.worker.token).post(requests(), dayOff(policyId, "2026-04-02"));
    const declined = await t.as(w.manager.token).post(`${requests()}/${filed.body.id}/decline`, { reason: "Inventory week" });
    expect(declined.body.status).toBe("declined");
    const gql = await t.gql(w.org.token, `query($id: ID!) { timeOffRequest(id: $id) { declineReason decidedAt decidedBy } }`, { id: filed.body.id });
    expect(gql.data!.timeOffRequest).toEqual({ declineReason: "Inventory week", decidedAt: "2026-03-02T15:00:00.000Z", decidedBy: w.manager.id });
    expect((await t.as(w.manager.token).post(`${requests()}/${filed.body.id}/approve`)).status).toBe(409);
    expect((await api().delete(`${requests()}/${filed.body.id}`)).status).toBe(409);
    const second = await t.as(w.worker.token).post(requests(), dayOff(policyId, "2026-04-02"));
    expect(second.status).toBe(201);
    const withdrawn = await t.as(w.worker.token).delete(`${requests()}/${second.body.id}`);
    expect(withdrawn.body).toMatchObject({ status: "cancelled", workerPolicy: { hoursBalance: 24, availableBalance: 24 } });
  });

  it("updates a pending request with PUT (spec 4.2) and rechecks the balance", async () => {
    await setBalance(t, w, policyId, w.worker.id, 16);
    const filed = await t.as(w.worker.token).post(requests(), dayOff(policyId, "2026-04-06"));
    const put = await t.as(w.worker.token).put(`${requests()}/${filed.body.id}`, {
      id: filed.body.id,
      policyId,
      startTime: "2026-04-06T00:00:00",
      endTime: "2026-04-07T23:59:59",
      isAllDay: true,
      note: "Two days",
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      note: "Two days",
      totalHours: 16,
      remainingBalance: 0,
      hourConfiguration: [
        { date: "2026-04-06", hours: 8 },
        { date: "2026-04-07", hours: 8 },
      ],
    });
    const tooMuch = await t.as(w.worker.token).put(`${requests()}/${filed.body.id}`, { endTime: "2026-04-08T23:59:59" });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error.code).toBe("INSUFFICIENT_BALANCE");
    expect((await t.as(w.worker.token).put(`${requests()}/${filed.body.id}`, { id: "00000000-0000-4000-8000-000000000000" })).status).toBe(400);
    expect((await t.as(w.worker.token).put(`${requests()}/${filed.body.id}`, { bogus: 1 })).status).toBe(400);
    await cancelAll();
  });

  it("refuses overdraw with 409 INSUFFICIENT_BALANCE, counting pending requests, unless the policy allows a negative balance", async () => {
    await setBalance(t, w, policyId, w.worker.id, 12);
    const first = await t.as(w.worker.token).post(requests(), dayOff(policyId, "2026-04-13"));
    expect(first.status).toBe(201);
    const second = await t.as(w.worker.token).post(requests(), dayOff(policyId, "2026-04-14"));
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("INSUFFICIENT_BALANCE");
    // The balance lowered after filing: approval checks it again.
    await setBalance(t, w, policyId, w.worker.id, 4);
    const approve = await t.as(w.manager.token).post(`${requests()}/${first.body.id}/approve`);
    expect(approve.status).toBe(409);
    expect(approve.body.error.code).toBe("INSUFFICIENT_BALANCE");
    await cancelAll();
    const lenient = await activePolicy(t, w, { allowNegativeBalance: true, requiresApproval: false, defaultSettings: { assignedStaff: { type: "All" } } });
    const filing = countStatements();
    const auto = await t.as(w.worker.token).post(requests(), dayOff(lenient, "2026-04-15"));
    const sql = filing.sql;
    filing.stop();
    expect(auto.body).toMatchObject({ status: "approved", remainingBalance: -8, workerPolicy: { hoursBalance: -8 } });
    // Where the balance may go below zero there is no room to check: it is read only for the answer, after the request is written.
    const written = sql.findIndex((q) => /INSERT INTO "time_off_requests"/.test(q));
    expect(written).toBeGreaterThan(0);
    expect(sql.slice(0, written).filter((q) => /time_off_ledger/.test(q))).toEqual([]);
    await cancelAll();
  });

  it("refuses a request overlapping another pending or approved one of the worker with 409", async () => {
    await setBalance(t, w, policyId, w.worker.id, 40);
    const other = await activePolicy(t, w, { allowNegativeBalance: true, defaultSettings: { assignedStaff: { type: "All" } } });
    const first = await t.as(w.worker.token).post(requests(), { policyId, startTime: "2026-05-04T09:00:00", endTime: "2026-05-04T13:00:00" });
    expect(first.status).toBe(201);
    const overlap = await t.as(w.worker.token).post(requests(), { policyId: other, startTime: "2026-05-04T12:00:00", endTime: "2026-05-04T17:00:00" });
    expect(overlap.status).toBe(409);
    expect(overlap.body.error.message).toMatch(/overlaps/);
    const after = await t.as(w.worker.token).post(requests(), { policyId: other, startTime: "2026-05-04T13:00:00", endTime: "2026-05-04T17:00:00" });
    expect(after.status).toBe(201);
    await t.as(w.worker.token).delete(`${requests()}/${first.body.id}`);
    expect((await t.as(w.worker.token).post(requests(), { policyId, startTime: "2026-05-04T10:00:00", endTime: "2026-05-04T12:00:00" })).status).toBe(201);
    await cancelAll();
  });

  it("files only against an Active policy the worker is included in", async () => {
    const draft = await api().post(`${w.base}/policies`, { name: "Draft", typeId: w.types.Other, defaultSettings: { assignedStaff: { type: "All" } } });
    expect((await t.as(w.worker.token).post(requests(), dayOff(draft.body.id, "2026-05-11"))).status).toBe(409);
    const notMine = await activePolicy(t, w, { defaultSettings: { assignedStaff: { type: "Staff", value: w.manager.id } } });
    const res = await t.as(w.worker.token).post(requests(), dayOff(notMine, "2026-05-11"));
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("NOT_IN_POLICY");
    expect((await t.as(w.worker.token).post(requests(), dayOff("00000000-0000-4000-8000-000000000000", "2026-05-11"))).status).toBe(404);
  });

  it("lets a worker file and see only their own requests, and not approve or decline (403)", async () => {
    await setBalance(t, w, policyId, w.worker.id, 40);
    await setBalance(t, w, policyId, w.manager.id, 40);
    const forOther = await t.as(w.worker.token).post(requests(), { ...dayOff(policyId, "2026-05-18"), workerId: w.manager.id });
    expect(forOther.status).toBe(403);
    const managers = await t.as(w.manager.token).post(requests(), dayOff(policyId, "2026-05-18"));
    expect(managers.body.workerId).toBe(w.manager.id);
    const own = await t.as(w.worker.token).post(requests(), dayOff(policyId, "2026-05-19"));
    expect(own.body.workerId).toBe(w.worker.id);
    expect((await t.as(w.worker.token).post(`${requests()}/${own.body.id}/approve`)).status).toBe(403);
    expect((await t.as(w.worker.token).post(`${requests()}/${own.body.id}/decline`)).status).toBe(403);
    expect((await t.as(w.worker.token).get(`${requests()}/${managers.body.id}`)).status).toBe(404);
    expect((await t.as(w.worker.token).delete(`${requests()}/${managers.body.id}`)).status).toBe(404);
    expect((await t.as(w.worker.token).put(`${requests()}/${managers.body.id}`, { note: "x" })).status).toBe(404);
    const list = await t.as(w.worker.token).get(requests());
    expect(new Set(list.body.map((r: { workerId: string }) => r.workerId))).toEqual(new Set([w.worker.id]));
    await t.as(w.manager.token).delete(`${requests()}/${managers.body.id}`);
    await cancelAll();
  });

  it("enforces the settings on past requests and minimum notice for staff filing for themselves", async () => {
    await setBalance(t, w, policyId, w.worker.id, 80);
    const past = await t.as(w.worker.token).post(requests(), dayOff(policyId, "2026-03-01"));
    expect(past.status).toBe(400);
    expect(past.body.error.details[0].field).toBe("startTime");
    expect((await t.as(w.worker.token).post(requests(), dayOff(policyId, "2026-03-02"))).status).toBe(201);
    // A manager may record a past day for a worker.
    expect((await t.as(w.manager.token).post(requests(), { ...dayOff(policyId, "2026-02-27"), workerId: w.worker.id })).status).toBe(201);
    await api().patch(`${w.base}/time-off-settings`, { allowPastRequests: true, minimumNoticeDays: 3 });
    expect((await t.as(w.worker.token).post(requests(), dayOff(policyId, "2026-02-26"))).status).toBe(201);
    const short = await t.as(w.worker.token).post(requests(), dayOff(policyId, "2026-03-04"));
    expect(short.status).toBe(400);
    expect(short.body.error.message).toMatch(/2026-03-05/);
    expect((await t.as(w.worker.token).post(requests(), dayOff(policyId, "2026-03-05"))).status).toBe(201);
    await api().patch(`${w.base}/time-off-settings`, { allowPastRequests: false, minimumNoticeDays: 0 });
    await cancelAll();
  });

  it("lists approved time-offs with the filters of spec 4.1", async () => {
    await setBalance(t, w, policyId, w.worker.id, 80);
    await setBalance(t, w, policyId, w.manager.id, 80);
    const file = async (token: string, date: string, approve: boolean) => {
      const res = await t.as(token).post(requests(), dayOff(policyId, date));
      if (approve) await t.as(w.manager.token).post(`${requests()}/${res.body.id}/approve`);
      return res.body.id as string;
    };
    const a = await file(w.worker.token, "2026-06-01", true);
    const b = await file(w.worker.token, "2026-06-10", true);
    await file(w.worker.token, "2026-06-15", false);
    const c = await file(w.manager.token, "2026-06-05", true);
    const ids = async (query: string) => {
      const res = await api().get(`${requests()}/time-offs${query}`);
      expect(res.status).toBe(200);
      return res.body.map((r: { id: string }) => r.id);
    };
    expect(await ids("")).toEqual(expect.arrayContaining([a, b, c]));
    expect(await ids(`?workerId=${w.worker.id}&startTime=2026-06-01&endTime=2026-06-30`)).toEqual([a, b]);
    expect(await ids("?startTime=2026-06-02&endTime=2026-06-09")).toEqual([c]);
    expect(await ids("?startTime=2026-06-01T12:00:00Z&endTime=2026-06-05T05:00:00Z")).toEqual([a, c]);
    const one = await api().get(`${requests()}/time-offs?workerId=${w.manager.id}&startTime=2026-06-01&endTime=2026-06-30`);
    expect(one.body).toHaveLength(1);
    expect(Object.keys(one.body[0]).sort()).toEqual(
      [
        "id",
        "locationId",
        "workerId",
        "policyId",
        "policy",
        "startTime",
        "endTime",
        "status",
        "note",
        "hourConfiguration",
        "timezone",
        "utcOffset",
        "isAllDay",
        "submittedAt",
        "remainingBalance",
        "totalHours",
        "workerPolicy",
      ].sort(),
    );
    expect((await api().get(`${requests()}/time-offs?startTime=2026-06-30&endTime=2026-06-01`)).status).toBe(400);
    expect((await api().get(`${requests()}/time-offs?startTime=yesterday`)).status).toBe(400);
    expect((await api().get(`${requests()}/time-offs?startTime=2026-01-01&endTime=2027-06-01`)).status).toBe(400);
    expect((await api().get(`${requests()}/time-offs?status=pending`)).status).toBe(400);
    expect(
      await t
        .as(w.worker.token)
        .get(`${requests()}/time-offs`)
        .then((r) => new Set(r.body.map((x: { workerId: string }) => x.workerId))),
    ).toEqual(new Set([w.worker.id]));
  });

  it("answers a filed request from what the commit's rendering read, and still hides the balances the organization hides", async () => {
    const ownPolicy = await activePolicy(t, w, { allowNegativeBalance: true, defaultSettings: { assignedStaff: { type: "All" } } });
    const day = (date: string) => ({ workerId: w.worker.id, policyId: ownPolicy, startTime: `${date}T09:00:00`, endTime: `${date}T17:00:00` });
    const statements = countStatements();
    const filed = await t.as(w.manager.token).post(requests(), day("2026-09-01"));
    const sql = statements.sql;
    statements.stop();
    expect(filed.status).toBe(201);
    expect(filed.body).toMatchObject({ remainingBalance: -8, workerPolicy: { hoursBalance: 0, availableBalance: -8 } });
    // The policy, its type and count, the worker's policy and balance were read for the event in the transaction: the answer reads none of them again.
    expect(sql.slice(sql.indexOf("COMMIT") + 1)).toEqual([]);
    await api().patch(`${w.base}/time-off-settings`, { workersSeeBalances: false });
    try {
      // The rendering saw the balances (it reads as the service); the worker's answer still does not.
      const own = await t.as(w.worker.token).post(requests(), day("2026-09-02"));
      expect(own.status).toBe(201);
      expect(own.body).toMatchObject({ remainingBalance: null, workerPolicy: { hoursBalance: null, availableBalance: null } });
    } finally {
      await api().patch(`${w.base}/time-off-settings`, { workersSeeBalances: true });
    }
    await cancelAll();
  });

  it("reads again, after a change, what the request read before it: mutations in one document see each other's changes", async () => {
    const ownPolicy = await activePolicy(t, w, { allowNegativeBalance: true, defaultSettings: { assignedStaff: { type: "All" } } });
    const input = (date: string) => ({ workerId: w.worker.id, policyId: ownPolicy, startTime: `${date}T09:00:00`, endTime: `${date}T17:00:00` });
    const res = await t.gql(
      w.org.token,
      `mutation ($first: CreateTimeOffRequestInput!, $second: CreateTimeOffRequestInput!, $policy: ID!) {
        first: createTimeOffRequest(input: $first) { policy { name } }
        renamed: updateTimeOffPolicy(id: $policy, input: { name: "Renamed leave" }) { name }
        second: createTimeOffRequest(input: $second) { policy { name } }
      }`,
      { first: input("2026-09-08"), second: input("2026-09-09"), policy: ownPolicy },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.first.policy.name).not.toBe("Renamed leave");
    expect(res.data!.second.policy.name).toBe("Renamed leave");
    await cancelAll();
  });

  it("answers 404 for another organization's requests", async () => {
    const other = await timeOffWorkplace(t);
    const theirPolicy = await activePolicy(t, other, { allowNegativeBalance: true, defaultSettings: { assignedStaff: { type: "All" } } });
    const theirs = await t.as(other.worker.token).post(`${other.base}/time-off-requests`, dayOff(theirPolicy, "2026-07-01"));
    expect(theirs.status).toBe(201);
    for (const res of [
      await api().get(`${requests()}/${theirs.body.id}`),
      await api().put(`${requests()}/${theirs.body.id}`, { note: "x" }),
      await api().delete(`${requests()}/${theirs.body.id}`),
      await api().post(`${requests()}/${theirs.body.id}/approve`),
      await api().post(`${requests()}/${theirs.body.id}/decline`),
      await api().get(`${other.base}/time-off-requests/${theirs.body.id}`),
      await api().get(`${requests()}/not-a-uuid`),
    ]) {
      expect(res.status).toBe(404);
    }
    const theirPolicyNamed = await api().post(requests(), { ...dayOff(theirPolicy, "2026-07-02"), workerId: w.worker.id });
    expect([theirPolicyNamed.status, theirPolicyNamed.body.error.details[0].field]).toEqual([404, "policyId"]);
    const theirWorkerNamed = await api().post(requests(), { ...dayOff(policyId, "2026-07-02"), workerId: other.worker.id });
    expect([theirWorkerNamed.status, theirWorkerNamed.body.error.details[0].field]).toEqual([404, "workerId"]);
  });
});
