import { AddressInfo } from "node:net";
import { TestService } from "../support/harness";
import { ServiceProcess } from "../support/service-process";
import { activePolicy, timeOffWorkplace, TimeOffWorkplace } from "../support/workplace";
import { balanceOf, dayOff, setBalance } from "./fixtures";

/** Races prove something only where transactions really run side by side. */
const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

describe("time-off races on PostgreSQL", () => {
  let t: TestService;
  let w: TimeOffWorkplace;
  let local: string;
  let other: ServiceProcess | undefined;
  /** The service in this process and, for the cross-process runs, a second one on the same database. */
  let targets: () => string[];

  beforeAll(async () => {
    // Real time: the second process has no fixed clock, and tokens must be valid in both.
    t = await TestService.start({ now: new Date().toISOString() });
    w = await timeOffWorkplace(t);
    await new Promise<void>((resolve) => t.runtime.server.listen(0, "127.0.0.1", resolve));
    local = `http://127.0.0.1:${(t.runtime.server.address() as AddressInfo).port}`;
    targets = () => [local];
  });
  afterAll(async () => {
    await other?.stop();
    await t.stop();
  });

  const call = async (base: string, method: string, path: string, body?: object) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${w.org.token}` },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const requests = () => `${w.base}/time-off-requests`;
  /** Spreads calls over the targets in turn. */
  const spread = <T>(items: T[], run: (target: string, item: T) => Promise<{ status: number; body: any }>) =>
    Promise.all(items.map((item, i) => run(targets()[i % targets().length], item)));
  let day = 0;
  /** Distinct future days, so that no two requests overlap. */
  const nextDay = () => new Date(Date.UTC(2030, 0, 1) + day++ * 86_400_000).toISOString().slice(0, 10);

  const tenRequestsAgainst24Hours = async () => {
    const policyId = await activePolicy(t, w, { defaultSettings: { assignedStaff: { type: "Staff", value: w.worker.id } } });
    await setBalance(t, w, policyId, w.worker.id, 24);
    const days = Array.from({ length: 10 }, nextDay);
    const answers = await spread(days, (target, date) => call(target, "POST", requests(), { ...dayOff(policyId, date), workerId: w.worker.id }));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    const refused = answers.filter((a) => a.status === 409);
    expect(refused).toHaveLength(7);
    expect(refused.every((a) => a.body.error.code === "INSUFFICIENT_BALANCE")).toBe(true);
    expect(await balanceOf(t, w, policyId, w.worker.id)).toMatchObject({ hoursBalance: 24, availableBalance: 0 });
  };

  const threeApprovalsAfterTheBalanceWasLowered = async () => {
    const policyId = await activePolicy(t, w, { defaultSettings: { assignedStaff: { type: "Staff", value: w.worker.id } } });
    await setBalance(t, w, policyId, w.worker.id, 24);
    const filed = await Promise.all(
      [nextDay(), nextDay(), nextDay()].map((date) => call(local, "POST", requests(), { ...dayOff(policyId, date), workerId: w.worker.id })),
    );
    expect(filed.map((f) => f.status)).toEqual([201, 201, 201]);
    await setBalance(t, w, policyId, w.worker.id, 16);
    const answers = await spread(filed, (target, f) => call(target, "POST", `${requests()}/${f.body.id}/approve`));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 409 && a.body.error.code === "INSUFFICIENT_BALANCE")).toHaveLength(1);
    expect((await balanceOf(t, w, policyId, w.worker.id)).hoursBalance).toBe(0);
  };

  const approveAndDeclineAtOnce = async () => {
    const policyId = await activePolicy(t, w, { defaultSettings: { assignedStaff: { type: "Staff", value: w.worker.id } } });
    await setBalance(t, w, policyId, w.worker.id, 200);
    for (let round = 0; round < 6; round++) {
      const filed = await call(local, "POST", requests(), { ...dayOff(policyId, nextDay()), workerId: w.worker.id });
      const actions = round % 2 ? ["decline", "approve"] : ["approve", "decline"];
      const answers = await spread(actions, (target, action) => call(target, "POST", `${requests()}/${filed.body.id}/${action}`));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = actions[answers.findIndex((a) => a.status === 200)];
      const now = await call(local, "GET", `${requests()}/${filed.body.id}`);
      expect(now.body.status).toBe(winner === "approve" ? "approved" : "declined");
      const uses: { n: string }[] = await t.runtime.db.query(`SELECT count(*) AS n FROM time_off_ledger WHERE request_id = $1`, [filed.body.id]);
      expect(Number(uses[0].n)).toBe(winner === "approve" ? 1 : 0);
    }
  };

  const accrualsAtOnce = async () => {
    const policyId = await activePolicy(t, w, {
      defaultSettings: { assignedStaff: { type: "Staff", value: w.worker.id } },
      limitSettings: { isFixedAmount: true, fixedAmount: { hours: 52, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Monday" } },
    });
    const until = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
    const answers = await spread([0, 1, 2, 3], (target) =>
      call(target, "POST", "/graphql", { query: `mutation($u: String) { accrueTimeOff(until: $u) { entries } }`, variables: { u: until } }),
    );
    const added = answers.reduce((sum, a) => sum + a.body.data.accrueTimeOff.entries, 0);
    const wp = await balanceOf(t, w, policyId, w.worker.id);
    const rows: { period_key: string }[] = await t.runtime.db.query(
      `SELECT period_key FROM time_off_ledger WHERE worker_policy_id = $1 AND kind = 'accrual' ORDER BY period_key`,
      [wp.id],
    );
    // Every Monday from the day the worker's accrual starts to `until`, once each.
    const [{ since }]: { since: string }[] = await t.runtime.db.query(
      `SELECT greatest(w.accrues_from, p.accruing_since)::text AS since FROM worker_policies w JOIN time_off_policies p ON p.id = w.policy_id WHERE w.id = $1`,
      [wp.id],
    );
    const mondays: string[] = [];
    for (let d = new Date(`${since}T00:00:00Z`); d.toISOString().slice(0, 10) <= until; d = new Date(d.getTime() + 86_400_000)) {
      if (d.getUTCDay() === 1) mondays.push(d.toISOString().slice(0, 10));
    }
    expect(mondays.length).toBeGreaterThanOrEqual(52);
    expect(rows.map((r) => r.period_key)).toEqual(mondays);
    expect(added).toBe(mondays.length);
    expect(wp.hoursBalance).toBe(mondays.length);
  };

  const balanceSetsAtOnce = async () => {
    const policyId = await activePolicy(t, w, { defaultSettings: { assignedStaff: { type: "Staff", value: w.worker.id } } });
    const { id } = await balanceOf(t, w, policyId, w.worker.id);
    const values = [5, 7.25, 12, 0.5, 40, 3.125, 16, 9];
    // Half by the policy and worker (PUT), half by the worker policy (PATCH): one lock serves both.
    const answers = await spread(values, (target, hoursBalance) =>
      values.indexOf(hoursBalance) % 2
        ? call(target, "PATCH", `${w.base}/worker-policies/${id}`, { hoursBalance, note: `set ${hoursBalance}` })
        : call(target, "PUT", `${w.base}/policies/${policyId}/workers/${w.worker.id}/balance`, { hoursBalance, note: `set ${hoursBalance}` }),
    );
    expect(answers.map((a) => a.status)).toEqual(values.map(() => 200));
    // Each set wrote the difference to the sum it saw; the ledger adds up to the last one committed.
    const wp = await balanceOf(t, w, policyId, w.worker.id);
    const rows: { hours: string; note: string }[] = await t.runtime.db.query(
      `SELECT hours::text AS hours, note FROM time_off_ledger WHERE worker_policy_id = $1 ORDER BY seq`,
      [wp.id],
    );
    const last = Number(rows[rows.length - 1].note.slice(4));
    // The ledger is exact; the balance is shown rounded to two decimals (3.125 → 3.13).
    expect(wp.hoursBalance).toBe(Math.round(last * 100) / 100);
    const [{ sum }]: { sum: string }[] = await t.runtime.db.query(`SELECT sum(hours)::text AS sum FROM time_off_ledger WHERE worker_policy_id = $1`, [wp.id]);
    expect(Number(sum)).toBe(last);
  };

  const removalAndFilingAtOnce = async () => {
    for (let round = 0; round < 6; round++) {
      const policyId = await activePolicy(t, w, { defaultSettings: { assignedStaff: { type: "Staff", value: w.worker.id } } });
      await setBalance(t, w, policyId, w.worker.id, 80);
      const [first, second] = round % 2 ? [targets()[0], targets()[targets().length - 1]] : [targets()[targets().length - 1], targets()[0]];
      const [filed, removed] = await Promise.all([
        call(first, "POST", requests(), { ...dayOff(policyId, nextDay()), workerId: w.worker.id }),
        call(second, "DELETE", `${w.base}/policies/${policyId}`),
      ]);
      // Either the request came first and blocks the removal, or the removal came first and the request finds no policy.
      expect([
        [201, 409],
        [404, 204],
      ]).toContainEqual([filed.status, removed.status]);
      const [{ n }]: { n: string }[] = await t.runtime.db.query(
        `SELECT count(*) AS n FROM time_off_requests r JOIN time_off_policies p ON p.id = r.policy_id WHERE r.policy_id = $1 AND p.deleted_at IS NOT NULL`,
        [policyId],
      );
      expect(Number(n)).toBe(0);
    }
  };

  onPostgres("eight balance sets at once: the ledger sums to the last one", balanceSetsAtOnce);
  onPostgres("removing a policy while a request is filed against it: one of them wins, never both", removalAndFilingAtOnce);
  onPostgres("ten 8-hour requests at once against 24 hours: exactly three pending, seven 409s", tenRequestsAgainst24Hours);
  onPostgres("three approvals at once after the balance was lowered to 16 hours: exactly two approved", threeApprovalsAfterTheBalanceWasLowered);
  onPostgres("approve and decline of one request at once: exactly one outcome", approveAndDeclineAtOnce);
  onPostgres("accrual runs at once add each period once", accrualsAtOnce);

  describe("across two service processes on one database", () => {
    beforeAll(async () => {
      if (!t.databaseUrl) return;
      other = await ServiceProcess.start(t.databaseUrl);
      targets = () => [local, other!.url];
    });
    onPostgres("ten requests at once against 24 hours", tenRequestsAgainst24Hours);
    onPostgres("three approvals at once against 16 hours", threeApprovalsAfterTheBalanceWasLowered);
    onPostgres("approve and decline at once", approveAndDeclineAtOnce);
    onPostgres("accrual runs at once", accrualsAtOnce);
    onPostgres("balance sets at once", balanceSetsAtOnce);
    onPostgres("removal and filing at once", removalAndFilingAtOnce);
  });
});
