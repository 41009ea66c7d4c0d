import { TestService } from "../support/harness";
import { activePolicy, timeOffWorkplace, TimeOffWorkplace } from "../support/workplace";
import { balanceOf, dayOff } from "./fixtures";

const NIL = "00000000-0000-4000-8000-000000000000";

describe("setting one worker's balance and removing a policy", () => {
  let t: TestService;
  let w: TimeOffWorkplace;
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-03-02T15:00:00.000Z" });
    w = await timeOffWorkplace(t);
  });
  afterAll(() => t.stop());
  const api = () => t.as(w.org.token);
  const balancePath = (policyId: string, workerId: string) => `${w.base}/policies/${policyId}/workers/${workerId}/balance`;
  const onlyWorker = () => ({ defaultSettings: { assignedStaff: { type: "Staff", value: w.worker.id } } });
  const ledgerRows = (workerPolicyId: string): Promise<{ kind: string; hours: string; note: string | null; recorded_by: string | null }[]> =>
    t.runtime.db.query(`SELECT kind, hours::text AS hours, note, recorded_by FROM time_off_ledger WHERE worker_policy_id = $1 ORDER BY seq`, [workerPolicyId]);

  it("PUT …/policies/{policyId}/workers/{workerId}/balance writes the exact difference as one adjustment row with the note and the actor", async () => {
    const policyId = await activePolicy(t, w, onlyWorker());
    const manager = t.as(w.manager.token);
    const first = await manager.put(balancePath(policyId, w.worker.id), { hoursBalance: 10.1, note: "Opening balance" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ policyId, workerId: w.worker.id, hoursBalance: 10.1, availableBalance: 10.1, isIncluded: true });
    const second = await manager.put(balancePath(policyId, w.worker.id), { hoursBalance: 10.3 });
    expect(second.body.hoursBalance).toBe(10.3);
    // Setting what is already there adds nothing.
    expect((await manager.put(balancePath(policyId, w.worker.id), { hoursBalance: 10.3, note: "again" })).status).toBe(200);
    const rows = await ledgerRows(first.body.id);
    expect(rows).toEqual([
      { kind: "adjustment", hours: "10.100000", note: "Opening balance", recorded_by: w.manager.id },
      { kind: "adjustment", hours: "0.200000", note: "Balance set to 10.3 h", recorded_by: w.manager.id },
    ]);
    // Six decimals survive exactly, and the balance shown is the ledger's sum rounded once.
    await manager.put(balancePath(policyId, w.worker.id), { hoursBalance: 7.333335 });
    const [{ sum }]: { sum: string }[] = await t.runtime.db.query(`SELECT sum(hours)::text AS sum FROM time_off_ledger WHERE worker_policy_id = $1`, [
      first.body.id,
    ]);
    expect(sum).toBe("7.333335");
    expect((await balanceOf(t, w, policyId, w.worker.id)).hoursBalance).toBe(7.33);
  });

  it("answers the same through GraphQL's setTimeOffBalance", async () => {
    const policyId = await activePolicy(t, w, onlyWorker());
    const res = await t.gql(
      w.org.token,
      `mutation($p: ID!, $w: ID!) { setTimeOffBalance(policyId: $p, workerId: $w, input: { hoursBalance: -4.5, note: "Advance" }) { id policyId workerId hoursBalance } }`,
      {
        p: policyId,
        w: w.worker.id,
      },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.setTimeOffBalance).toMatchObject({ policyId, workerId: w.worker.id, hoursBalance: -4.5 });
    expect(await ledgerRows(res.data!.setTimeOffBalance.id)).toEqual([{ kind: "adjustment", hours: "-4.500000", note: "Advance", recorded_by: null }]);
  });

  it("refuses a worker outside the policy (409), unknown records (404), a worker's token (403) and bad bodies (400)", async () => {
    const policyId = await activePolicy(t, w, onlyWorker());
    const outside = await api().put(balancePath(policyId, w.manager.id), { hoursBalance: 8 });
    expect(outside.status).toBe(409);
    expect(outside.body.error.code).toBe("NOT_IN_POLICY");
    expect(outside.body.error.message).toMatch(/is not included in the policy/);
    expect((await api().put(balancePath(policyId, NIL), { hoursBalance: 8 })).body.error).toMatchObject({
      code: "NOT_FOUND",
      message: "Staff member not found",
    });
    expect((await api().put(balancePath(NIL, w.worker.id), { hoursBalance: 8 })).body.error).toMatchObject({ code: "NOT_FOUND", message: "Policy not found" });
    expect((await t.as(w.worker.token).put(balancePath(policyId, w.worker.id), { hoursBalance: 800 })).status).toBe(403);
    const text = await api().put(balancePath(policyId, w.worker.id), { hoursBalance: "8" });
    expect(text.status).toBe(400);
    expect(JSON.stringify(text.body.error)).toContain("hoursBalance");
    expect((await api().put(balancePath(policyId, w.worker.id), { note: "no hours" })).status).toBe(400);
    expect((await api().put(balancePath(policyId, w.worker.id), { hoursBalance: 1e6 })).status).toBe(400);
    expect((await api().put(balancePath(policyId, w.worker.id), { hoursBalance: 1.0000001 })).status).toBe(400);
    const other = await timeOffWorkplace(t);
    const theirs = await activePolicy(t, other);
    expect((await api().put(balancePath(theirs, other.worker.id), { hoursBalance: 8 })).status).toBe(404);
    expect((await api().put(balancePath(policyId, other.worker.id), { hoursBalance: 8 })).status).toBe(404);
    const [{ n }]: { n: string }[] = await t.runtime.db.query(
      `SELECT count(*) AS n FROM time_off_ledger l JOIN worker_policies wp ON wp.id = l.worker_policy_id WHERE wp.policy_id = ANY ($1::uuid[])`,
      [[policyId, theirs]],
    );
    expect(Number(n)).toBe(0);
  });

  it("PATCH …/worker-policies/{id} includes or excludes by hand and sets the balance in one transaction", async () => {
    const policyId = await activePolicy(t, w, onlyWorker());
    const workerPolicy = await balanceOf(t, w, policyId, w.worker.id);
    const path = `${w.base}/worker-policies/${workerPolicy.id}`;
    // Excluding and setting a balance at once is refused whole: the worker stays included.
    const refused = await api().patch(path, { isIncluded: false, hoursBalance: 5 });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("NOT_IN_POLICY");
    expect((await balanceOf(t, w, policyId, w.worker.id)).isIncluded).toBe(true);
    expect(await ledgerRows(workerPolicy.id)).toEqual([]);

    const excluded = await api().patch(path, { isIncluded: false });
    expect(excluded.status).toBe(200);
    expect(excluded.body).toMatchObject({ id: workerPolicy.id, policyId, workerId: w.worker.id, isIncluded: false, hoursBalance: 0 });
    const back = await t.as(w.manager.token).patch(path, { isIncluded: true, hoursBalance: 12.5, note: "Hired mid-year" });
    expect(back.body).toMatchObject({ isIncluded: true, hoursBalance: 12.5 });
    expect(await ledgerRows(workerPolicy.id)).toEqual([{ kind: "adjustment", hours: "12.500000", note: "Hired mid-year", recorded_by: w.manager.id }]);
    expect((await api().patch(path, { note: "alone" })).status).toBe(400);
    expect((await api().patch(path, { isIncluded: null })).status).toBe(400);
    expect((await t.as(w.worker.token).patch(path, { hoursBalance: 100 })).status).toBe(403);

    const gql = await t.gql(w.org.token, `mutation($id: ID!) { updateWorkerPolicy(id: $id, input: { hoursBalance: 20 }) { hoursBalance isIncluded } }`, {
      id: workerPolicy.id,
    });
    expect(gql).toEqual({ data: { updateWorkerPolicy: { hoursBalance: 20, isIncluded: true } } });
    expect((await ledgerRows(workerPolicy.id)).map((r) => r.hours)).toEqual(["12.500000", "7.500000"]);
  });

  it("refuses to remove a policy pending or approved requests use, naming them; removes it once they are cancelled", async () => {
    const policyId = await activePolicy(t, w, onlyWorker());
    await api().put(balancePath(policyId, w.worker.id), { hoursBalance: 40 });
    const pending = await api().post(`${w.base}/time-off-requests`, { ...dayOff(policyId, "2026-04-06"), workerId: w.worker.id });
    const approved = await api().post(`${w.base}/time-off-requests`, { ...dayOff(policyId, "2026-04-07"), workerId: w.worker.id });
    expect((await api().post(`${w.base}/time-off-requests/${approved.body.id}/approve`)).status).toBe(200);

    const refused = await api().delete(`${w.base}/policies/${policyId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("POLICY_IN_USE");
    expect(refused.body.error.message).toMatch(/^2 pending or approved time-off request\(s\) use this policy/);
    expect(refused.body.error.details).toEqual([
      { field: "timeOffRequests", message: refused.body.error.message },
      { field: "timeOffRequests[0].id", message: pending.body.id },
      { field: "timeOffRequests[1].id", message: approved.body.id },
    ]);
    expect((await api().get(`${w.base}/policies/${policyId}`)).status).toBe(200);

    await api().delete(`${w.base}/time-off-requests/${pending.body.id}`);
    await api().post(`${w.base}/time-off-requests/${approved.body.id}/decline`);
    expect((await api().delete(`${w.base}/policies/${policyId}`)).status).toBe(409);
    await api().delete(`${w.base}/time-off-requests/${approved.body.id}`);
    const workerPolicy = await balanceOf(t, w, policyId, w.worker.id);
    const ledgerBefore = await ledgerRows(workerPolicy.id);

    const removed = await api().delete(`${w.base}/policies/${policyId}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    const events: { type: string }[] = await t.runtime.db.query(
      `SELECT type FROM events WHERE organization_id = $1 AND object->>'id' = $2 ORDER BY sequence DESC LIMIT 1`,
      [w.org.id, policyId],
    );
    expect(events).toEqual([{ type: "time_off_policy.deleted" }]);
    expect((await api().get(`${w.base}/policies/${policyId}`)).status).toBe(404);
    expect((await api().delete(`${w.base}/policies/${policyId}`)).status).toBe(404);
    expect((await api().patch(`${w.base}/policies/${policyId}`, { name: "Back" })).status).toBe(404);
    expect((await api().patch(`${w.base}/policies/${policyId}/deactivate`)).status).toBe(404);
    expect((await api().put(balancePath(policyId, w.worker.id), { hoursBalance: 1 })).status).toBe(404);
    expect((await api().patch(`${w.base}/worker-policies/${workerPolicy.id}`, { hoursBalance: 1 })).status).toBe(404);
    const ids = (body: { id: string }[]) => body.map((p) => p.id);
    expect(ids((await api().get(`${w.base}/policies?fetchAllStatuses=true`)).body)).not.toContain(policyId);
    expect((await api().get(`${w.base}/worker-policies?policyId=${policyId}`)).body).toEqual([]);
    expect((await api().get(`${w.base}/staff/${w.worker.id}/policies`)).body.map((x: { policyId: string }) => x.policyId)).not.toContain(policyId);
    // A new request cannot name it; the cancelled ones still show it; the ledger stays readable.
    expect((await api().post(`${w.base}/time-off-requests`, { ...dayOff(policyId, "2026-04-08"), workerId: w.worker.id })).status).toBe(404);
    const cancelled = await api().get(`${w.base}/time-off-requests/${pending.body.id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.policy.id).toBe(policyId);
    expect(await ledgerRows(workerPolicy.id)).toEqual(ledgerBefore);
    const ledger = await api().get(`${w.base}/worker-policies/${workerPolicy.id}/ledger`);
    expect(ledger.status).toBe(200);
    expect(ledger.body.map((r: { kind: string }) => r.kind)).toEqual(["adjustment", "use", "give_back"]);
  });

  it("a removed policy takes no new staff and accrues nothing", async () => {
    const policyId = await activePolicy(t, w, {
      defaultSettings: { assignedStaff: { type: "All" } },
      limitSettings: { isFixedAmount: true, fixedAmount: { hours: 52, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Monday" } },
    });
    expect((await api().delete(`${w.base}/policies/${policyId}`)).status).toBe(204);
    const joiner = await t.staffWithToken(w.org, "Worker");
    const rows: unknown[] = await t.runtime.db.query(`SELECT 1 FROM worker_policies WHERE policy_id = $1 AND worker_id = $2`, [policyId, joiner.staff.id]);
    expect(rows).toEqual([]);
    await api().post(`${w.base}/time-off-accruals`, { until: "2026-06-01" });
    const [{ n }]: { n: string }[] = await t.runtime.db.query(
      `SELECT count(*) AS n FROM time_off_ledger l JOIN worker_policies wp ON wp.id = l.worker_policy_id WHERE wp.policy_id = $1`,
      [policyId],
    );
    expect(Number(n)).toBe(0);
  });

  it("removes through GraphQL's deleteTimeOffPolicy with the same refusal", async () => {
    const policyId = await activePolicy(t, w, onlyWorker());
    await api().put(balancePath(policyId, w.worker.id), { hoursBalance: 8 });
    const request = await api().post(`${w.base}/time-off-requests`, { ...dayOff(policyId, "2026-05-04"), workerId: w.worker.id });
    const remove = () => t.gql(w.org.token, `mutation($id: ID!) { deleteTimeOffPolicy(id: $id) }`, { id: policyId });
    const refused = await remove();
    expect(refused.errors?.[0].extensions).toMatchObject({
      code: "POLICY_IN_USE",
      details: expect.arrayContaining([{ field: "timeOffRequests[0].id", message: request.body.id }]),
    });
    expect((await t.gql(w.manager.token, `mutation($id: ID!) { deleteTimeOffPolicy(id: $id) }`, { id: policyId })).errors?.[0].extensions.code).toBe(
      "POLICY_IN_USE",
    );
    expect((await t.gql(w.worker.token, `mutation($id: ID!) { deleteTimeOffPolicy(id: $id) }`, { id: policyId })).errors?.[0].extensions.code).toBe(
      "FORBIDDEN",
    );
    await api().delete(`${w.base}/time-off-requests/${request.body.id}`);
    expect(await remove()).toEqual({ data: { deleteTimeOffPolicy: true } });
    expect((await remove()).errors?.[0].extensions.code).toBe("NOT_FOUND");
  });
});
