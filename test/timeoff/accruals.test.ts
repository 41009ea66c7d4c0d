import { TestService } from "../support/harness";
import { activePolicy, timeOffWorkplace, TimeOffWorkplace } from "../support/workplace";
import { balanceOf, dayOff, ledgerOf, setBalance } from "./fixtures";

describe("time-off accruals", () => {
  let t: TestService;
  // The clock moves over years here: tokens must outlive it.
  beforeAll(async () => (t = await TestService.start({ now: "2026-01-01T17:00:00.000Z", env: { TOKEN_TTL_SECONDS: String(5 * 365 * 86400) } })));
  afterAll(() => t.stop());
  const accrue = (organizationId: string, until?: string) => t.runtime.services.timeOffAccruals.accrue(organizationId, until);
  /** A policy for the workplace's worker alone, activated at the clock's time. */
  const policyFor = (w: TimeOffWorkplace, fields: Record<string, unknown>) =>
    activePolicy(t, w, { defaultSettings: { assignedStaff: { type: "Staff", value: w.worker.id } }, ...fields });

  it("accrues a year of weekly accruals on the accrual day, adding up to the yearly hours exactly", async () => {
    t.clock.set("2026-01-01T17:00:00.000Z");
    const w = await timeOffWorkplace(t);
    const policyId = await policyFor(w, {
      limitSettings: { isFixedAmount: true, fixedAmount: { hours: 40, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Sunday" } },
    });
    const half = await accrue(w.org.id, "2026-06-30");
    const rest = await accrue(w.org.id, "2026-12-31");
    expect(half.entries + rest.entries).toBe(52);
    const wp = await balanceOf(t, w, policyId, w.worker.id);
    expect(wp.hoursBalance).toBe(40);
    const ledger = await ledgerOf(t, w, wp.id);
    expect(ledger).toHaveLength(52);
    expect(ledger.every((l) => l.kind === "accrual" && new Date(`${l.effectiveDate}T12:00:00Z`).getUTCDay() === 0)).toBe(true);
    expect(ledger[0].effectiveDate).toBe("2026-01-04");
    expect(ledger[51].effectiveDate).toBe("2026-12-27");
    // Exact in storage: the rows add up to 40 without drift.
    const [{ sum }] = await t.runtime.db.query(`SELECT sum(hours)::text AS sum FROM time_off_ledger WHERE worker_policy_id = $1`, [wp.id]);
    expect(Number(sum)).toBe(40);
    expect((await accrue(w.org.id, "2026-12-31")).entries).toBe(0);
    expect((await accrue("all", "2026-12-31")).entries).toBe(0);
  });

  it("accrues monthly on the 31st, on the last day of February", async () => {
    t.clock.set("2026-01-01T17:00:00.000Z");
    const w = await timeOffWorkplace(t);
    const policyId = await policyFor(w, {
      limitSettings: { isFixedAmount: true, fixedAmount: { daysEarned: 1.5, accrualCycle: "Periodic", accrualFrequency: "EveryMonth", accrualDate: "31st" } },
    });
    await accrue(w.org.id, "2026-04-29");
    const wp = await balanceOf(t, w, policyId, w.worker.id);
    const ledger = await ledgerOf(t, w, wp.id);
    expect(ledger.map((l) => [l.effectiveDate, l.hours])).toEqual([
      ["2026-01-31", 1],
      ["2026-02-28", 1],
      ["2026-03-31", 1],
    ]);
    expect(wp.hoursBalance).toBe(3);
  });

  it("grants the yearly amount all at once on the accrual date of January, only once", async () => {
    t.clock.set("2025-11-01T17:00:00.000Z");
    const w = await timeOffWorkplace(t);
    const policyId = await policyFor(w, { limitSettings: { isFixedAmount: true, fixedAmount: { hours: 80, accrualCycle: "AllAtOnce", accrualDate: "2nd" } } });
    await accrue(w.org.id, "2026-01-01");
    expect((await balanceOf(t, w, policyId, w.worker.id)).hoursBalance).toBe(0);
    await accrue(w.org.id, "2026-01-02");
    await accrue(w.org.id, "2026-12-31");
    const wp = await balanceOf(t, w, policyId, w.worker.id);
    expect((await ledgerOf(t, w, wp.id)).map((l) => [l.kind, l.effectiveDate, l.periodKey, l.hours])).toEqual([["grant", "2026-01-02", "2026", 80]]);
  });

  it("accrues per hour worked from the payable minutes of closed shifts, up to the maximum balance", async () => {
    t.clock.set("2026-03-02T12:00:00.000Z");
    const w = await timeOffWorkplace(t);
    const policyId = await policyFor(w, {
      limitSettings: { isFixedAmount: false, perHourEarnings: { hoursEarned: 1, hoursWorked: 4, isLimitedMaximumBalance: true, maximumHoursBalance: 3 } },
    });
    const shift = async (date: string, from: string, to: string, breaks: object[] = []) => {
      const res = await t.as(w.org.token).post("/api/timesheets", {
        employeeId: w.worker.id,
        locationId: w.locationId,
        roleId: w.roleId,
        startTime: `${date}T${from}`,
        endTime: `${date}T${to}`,
        breaks,
      });
      if (res.status !== 201) throw new Error(`shift: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { id: string; payableDuration: number };
    };
    // Clocked out 15 s early: counted to the nearest minute, as lists and the export count it.
    const first = await shift("2026-03-03", "09:00:00", "16:59:45", [
      { startTime: "2026-03-03T12:00:00", endTime: "2026-03-03T12:30:00", paid: false, name: "Lunch" },
    ]);
    expect(first.payableDuration).toBe(450);
    await shift("2026-03-04", "09:00:00", "17:00:00", [{ startTime: "2026-03-04T12:00:00", endTime: "2026-03-04T12:15:00", paid: true, name: "Rest" }]);
    await shift("2026-03-05", "09:00:00", "13:00:00");
    // A shift still running earns nothing yet.
    const open = await t
      .as(w.org.token)
      .post("/api/timesheets", { employeeId: w.worker.id, locationId: w.locationId, roleId: w.roleId, startTime: "2026-03-06T09:00:00" });
    expect(open.status).toBe(201);
    t.clock.set("2026-03-06T18:00:00.000Z");
    const run = await accrue(w.org.id, "2026-03-06");
    expect(run.entries).toBe(3);
    const wp = await balanceOf(t, w, policyId, w.worker.id);
    expect(wp.hoursBalance).toBe(3);
    const ledger = await ledgerOf(t, w, wp.id);
    expect(ledger.map((l) => [l.effectiveDate, l.hours])).toEqual([
      ["2026-03-03", 1.88],
      ["2026-03-04", 1.13],
      ["2026-03-05", 0],
    ]);
    expect(ledger[1].note).toMatch(/Earned 2 h; capped/);
    expect((await accrue(w.org.id, "2026-03-06")).entries).toBe(0);

    // Once hours are used, accrual resumes for shifts worked after that, never for ones already counted.
    await t.as(w.org.token).patch(`/api/timesheets/${open.body.id}`, { endTime: "2026-03-06T13:00:00" });
    const used = await t
      .as(w.org.token)
      .post(`${w.base}/time-off-requests`, { ...dayOff(policyId, "2026-03-20"), workerId: w.worker.id, hourConfiguration: [{ date: "2026-03-20", hours: 2 }] });
    await t.as(w.org.token).post(`${w.base}/time-off-requests/${used.body.id}/approve`);
    await accrue(w.org.id, "2026-03-06");
    const after = await balanceOf(t, w, policyId, w.worker.id);
    expect(after.hoursBalance).toBe(2);
    const [{ sum }] = await t.runtime.db.query(`SELECT sum(hours)::text AS sum FROM time_off_ledger WHERE worker_policy_id = $1`, [after.id]);
    expect(Number(sum)).toBe(2);
  });

  it("forfeits the balance above the carry-over limit on January 1st in the organization's time zone", async () => {
    t.clock.set("2025-06-01T17:00:00.000Z");
    const auckland = await timeOffWorkplace(t, "Pacific/Auckland");
    const newYork = await timeOffWorkplace(t, "America/New_York");
    const fields = { carryoverLimit: 10, limitSettings: { isFixedAmount: true, fixedAmount: { hours: 40, accrualCycle: "AllAtOnce", accrualDate: "1st" } } };
    const inAuckland = await policyFor(auckland, fields);
    const inNewYork = await policyFor(newYork, fields);
    await setBalance(t, auckland, inAuckland, auckland.worker.id, 30);
    await setBalance(t, newYork, inNewYork, newYork.worker.id, 30);
    // 20:00 UTC on December 31st is already January 1st in Auckland, still December 31st in New York.
    t.clock.set("2025-12-31T20:00:00.000Z");
    await accrue(auckland.org.id);
    await accrue(newYork.org.id);
    expect((await balanceOf(t, auckland, inAuckland, auckland.worker.id)).hoursBalance).toBe(50);
    expect((await balanceOf(t, newYork, inNewYork, newYork.worker.id)).hoursBalance).toBe(30);
    const ledger = await ledgerOf(t, auckland, (await balanceOf(t, auckland, inAuckland, auckland.worker.id)).id);
    expect(ledger.map((l) => [l.kind, l.effectiveDate, l.hours])).toEqual([
      ["adjustment", "2025-06-02", 30],
      ["grant", "2026-01-01", 40],
      ["carryover_forfeit", "2026-01-01", -20],
    ]);
    t.clock.set("2026-01-01T06:00:00.000Z");
    await accrue("all");
    expect((await balanceOf(t, newYork, inNewYork, newYork.worker.id)).hoursBalance).toBe(50);
    // A year later the 50 h are cut to 10 again before the next grant.
    await accrue(newYork.org.id, "2027-01-01");
    expect((await balanceOf(t, newYork, inNewYork, newYork.worker.id)).hoursBalance).toBe(50);
    expect((await accrue(newYork.org.id, "2027-01-01")).entries).toBe(0);
  });

  it("runs through GraphQL for managers only, and refuses a bad date", async () => {
    const w = await timeOffWorkplace(t);
    const ok = await t.gql(w.org.token, `mutation { accrueTimeOff(until: "2026-01-31") { workerPolicies entries } }`);
    expect(ok.data!.accrueTimeOff).toEqual({ workerPolicies: 0, entries: 0 });
    expect((await t.gql(w.worker.token, `mutation { accrueTimeOff { entries } }`)).errors![0].extensions.code).toBe("FORBIDDEN");
    expect((await t.gql(w.org.token, `mutation { accrueTimeOff(until: "2026-02-30") { entries } }`)).errors![0].extensions.code).toBe("VALIDATION_FAILED");
  });
});
