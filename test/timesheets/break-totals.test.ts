import fc from "fast-check";
import { KeepShiftBreakTotals1763900700000 } from "../../migrations/1763900700000-KeepShiftBreakTotals";
import { KeepShiftBreakLists1763903800000 } from "../../migrations/1763903800000-KeepShiftBreakLists";
import { TestService } from "../support/harness";
import { workplace, Workplace } from "../support/workplace";

/** Transactions that wait on each other prove something only where they really run side by side. */
const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;

const MINUTE = 60_000;
const DAY = 24 * 3_600_000;

interface Span {
  start: number;
  end: number | null;
  paid: boolean;
}

/** The expected totals, worked out here independently: each break clipped to the shift, an open break running to its end. */
function clippedMs(shiftStart: number, shiftEnd: number, breaks: Span[]): { paid: number; unpaid: number } {
  const totals = { paid: 0, unpaid: 0 };
  for (const b of breaks) {
    const ms = Math.min(shiftEnd, b.end ?? shiftEnd) - Math.max(shiftStart, b.start);
    if (ms > 0) totals[b.paid ? "paid" : "unpaid"] += ms;
  }
  return totals;
}

describe("break totals and lists kept with each shift", () => {
  let t: TestService;
  let w: Workplace;
  const types = { paid: "", unpaid: "" };
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-06-01T12:00:00.000Z" });
    w = await workplace(t, "Asia/Kolkata", 21.5);
    const breakTypes = `/api/organizations/${w.org.id}/locations/${w.locationId}/breaks`;
    types.paid = (await t.as(w.org.token).post(breakTypes, { name: "Rest", durationMinutes: 15, paid: true })).body.id;
    types.unpaid = (await t.as(w.org.token).post(breakTypes, { name: "Lunch", durationMinutes: 30, paid: false })).body.id;
  });
  afterAll(() => t.stop());

  const totalsOf = async (shiftId: string) => {
    const [row] = await t.runtime.db.query("SELECT paid_break_ms, unpaid_break_ms FROM shifts WHERE id = $1", [shiftId]);
    return { paid: row.paid_break_ms === null ? null : Number(row.paid_break_ms), unpaid: row.unpaid_break_ms === null ? null : Number(row.unpaid_break_ms) };
  };

  /** A shift's breaks as a read answers them (local times of the location, Asia/Kolkata). */
  const listedBreaks = async (shiftId: string) =>
    (await t.as(w.org.token).get(`/api/timesheets/${shiftId}`)).body.breaks.map((b: { startTime: string; endTime: string; paid: boolean }) => ({
      startTime: b.startTime,
      endTime: b.endTime,
      paid: b.paid,
    }));

  /** The worker's 09:00–17:00 shift on a local day, with breaks as [from, to, paid] local times of that day. */
  const dayShift = async (day: string, breaks: [string, string, boolean][] = []): Promise<{ id: string }> =>
    (
      await t.as(w.org.token).post("/api/timesheets", {
        employeeId: w.workerId,
        locationId: w.locationId,
        roleId: w.roleId,
        startTime: `${day}T09:00:00`,
        endTime: `${day}T17:00:00`,
        breaks: breaks.map(([from, to, paid]) => ({ startTime: `${day}T${from}`, endTime: `${day}T${to}`, paid })),
      })
    ).body;

  /** The same day's shift as the list counts it (from its breaks) and as the export counts it (from the kept totals). */
  const bothWays = async (shiftId: string, day: string) => {
    const api = t.as(w.org.token);
    const listed = (await api.get(`/api/timesheets?startDate=${day}&endDate=${day}&employeeId=${w.workerId}`)).body.shifts.find(
      (s: { id: string }) => s.id === shiftId,
    );
    const exported = JSON.parse((await api.get(`/api/timesheets/export?startDate=${day}&endDate=${day}&employeeId=${w.workerId}&format=json`)).text);
    const row = exported.find((r: { shiftId: string }) => r.shiftId === shiftId);
    return {
      list: { duration: listed.duration, paid: listed.totalPaidBreaks, unpaid: listed.totalUnpaidBreaks, payable: listed.payableDuration },
      export: { duration: row.durationMinutes, paid: row.paidBreakMinutes, unpaid: row.unpaidBreakMinutes, payable: row.payableMinutes },
    };
  };

  it("match the shift's breaks clipped to it, to the millisecond, after any create and change of times", async () => {
    const firstDay = Date.UTC(2026, 0, 1);
    let run = 0;
    const shift = fc
      .record({
        startMs: fc.integer({ min: 0, max: 12 * 3_600_000 }),
        lengthMs: fc.integer({ min: 2 * 3_600_000, max: 12 * 3_600_000 }),
        // Breaks as fractions of the shift, sorted and paired so they never overlap.
        cuts: fc.uniqueArray(fc.integer({ min: 1, max: 999 }), { minLength: 0, maxLength: 6 }),
        paid: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        moveStart: fc.integer({ min: -3_600_000, max: 3_600_000 }),
        moveEnd: fc.integer({ min: -3_600_000, max: 3_600_000 }),
        change: fc.constantFrom("none", "start", "end", "both"),
      })
      .map((s) => {
        const cuts = [...s.cuts].sort((a, b) => a - b);
        const breaks: Span[] = [];
        for (let i = 0; i + 1 < cuts.length; i += 2) {
          breaks.push({ start: Math.floor((s.lengthMs * cuts[i]) / 1000), end: Math.floor((s.lengthMs * cuts[i + 1]) / 1000), paid: s.paid[i / 2] });
        }
        return { ...s, breaks };
      });
    await fc.assert(
      fc.asyncProperty(shift, async (s) => {
        // Two days apart, so a moved shift never meets the next one.
        const dayStart = firstDay + 2 * run++ * DAY;
        const start = dayStart + s.startMs;
        const end = start + s.lengthMs;
        const iso = (ms: number) => new Date(ms).toISOString();
        const api = t.as(w.org.token);
        const created = await api.post("/api/timesheets", {
          employeeId: w.workerId,
          locationId: w.locationId,
          roleId: w.roleId,
          startTime: iso(start),
          endTime: iso(end),
          breaks: s.breaks.map((b) => ({ startTime: iso(start + b.start), endTime: iso(start + b.end!), paid: b.paid })),
        });
        expect(created.status).toBe(201);
        const breaks = s.breaks.map((b) => ({ ...b, start: start + b.start, end: start + b.end! }));
        expect(await totalsOf(created.body.id)).toEqual(clippedMs(start, end, breaks));

        // A shortened or moved shift keeps its breaks; what falls outside it stops counting.
        const newStart = s.change === "start" || s.change === "both" ? start + s.moveStart : start;
        const newEnd = s.change === "end" || s.change === "both" ? end + s.moveEnd : end;
        if (s.change !== "none") {
          const patch: Record<string, string> = {};
          if (newStart !== start) patch.startTime = iso(newStart);
          if (newEnd !== end) patch.endTime = iso(newEnd);
          expect((await api.patch(`/api/timesheets/${created.body.id}`, patch)).status).toBe(200);
        }
        expect(await totalsOf(created.body.id)).toEqual(clippedMs(newStart, newEnd, breaks));
        const local = (await api.get(`/api/timesheets/${created.body.id}`)).body.startTime.slice(0, 10);
        const counted = await bothWays(created.body.id, local);
        expect(counted.export).toEqual(counted.list);
      }),
      { numRuns: 40, seed: 20261123 },
    );
  });

  it("follow the time clock: null while the shift is open, final when it ends, a running break closed with it", async () => {
    const manager = t.as(w.org.token);
    const base = Date.UTC(2026, 4, 1, 3, 30);
    const at = (minutes: number) => new Date(base + minutes * MINUTE).toISOString();
    const shift = (await manager.post("/api/time-tracking/clock-in", { workerId: w.workerId, locationId: w.locationId, roleId: w.roleId, time: at(0) })).body;
    expect(await totalsOf(shift.id)).toEqual({ paid: null, unpaid: null });
    await manager.post("/api/time-tracking/breaks/start", { workerId: w.workerId, typeId: types.paid, time: at(60) });
    await manager.post("/api/time-tracking/breaks/end", { workerId: w.workerId, time: at(75) });
    await manager.post("/api/time-tracking/breaks/start", { workerId: w.workerId, typeId: types.unpaid, time: at(240) });
    expect(await totalsOf(shift.id)).toEqual({ paid: null, unpaid: null });
    await manager.post("/api/time-tracking/clock-out", { workerId: w.workerId, time: at(262.5) });
    expect(await totalsOf(shift.id)).toEqual({ paid: 15 * MINUTE, unpaid: 22.5 * MINUTE });
    const counted = await bothWays(shift.id, "2026-05-01");
    // Half minutes round up, each total once: 262.5 and 22.5 minutes count 263 and 23.
    expect(counted.export).toEqual({ duration: 263, paid: 15, unpaid: 23, payable: 240 });
    expect(counted.export).toEqual(counted.list);
  });

  it("follow breaks replaced by a change of the shift, and write no audit event of their own", async () => {
    const api = t.as(w.org.token);
    const created = await dayShift("2026-05-05", [["12:00:00", "12:30:00", false]]);
    const shiftEvents = async () =>
      (await t.runtime.db.query("SELECT action, before, after FROM audit_events WHERE resource_type = 'shifts' AND resource_id = $1 ORDER BY occurred_at", [
        created.id,
      ])) as {
        action: string;
        before: object | null;
        after: object | null;
      }[];
    expect((await shiftEvents()).map((e) => e.action)).toEqual(["insert"]);
    await api.patch(`/api/timesheets/${created.id}`, { breaks: [{ startTime: "2026-05-05T13:00:00", endTime: "2026-05-05T13:45:00", paid: true }] });
    expect(await totalsOf(created.id)).toEqual({ paid: 45 * MINUTE, unpaid: 0 });
    const events = await shiftEvents();
    // The change itself is audited once (its updated_at moved); recomputed totals add nothing, and no event shows them.
    expect(events.map((e) => e.action)).toEqual(["insert", "update"]);
    for (const e of events) for (const row of [e.before, e.after]) expect(Object.keys(row ?? {})).not.toContain("paid_break_ms");
  });

  onPostgres("count the breaks of two transactions that add to one shift at the same time", async () => {
    const created = await dayShift("2026-05-06");
    const first = t.runtime.db.createQueryRunner();
    const second = t.runtime.db.createQueryRunner();
    const addBreak = (runner: typeof first, from: string, to: string, paid: boolean) =>
      runner.query("INSERT INTO shift_breaks (organization_id, shift_id, start_time, end_time, paid, name) VALUES ($1, $2, $3, $4, $5, 'Break')", [
        w.org.id,
        created.id,
        from,
        to,
        paid,
      ]);
    try {
      await first.startTransaction();
      await second.startTransaction();
      const [{ pid }] = await second.query("SELECT pg_backend_pid() AS pid");
      await addBreak(first, "2026-05-06T05:30:00Z", "2026-05-06T05:45:00Z", true);
      // Waits for the first transaction's lock on the shift, then counts both breaks.
      let secondDone = false;
      const waiting = addBreak(second, "2026-05-06T07:30:00Z", "2026-05-06T08:00:00Z", false).finally(() => (secondDone = true));
      // The race happens: the server shows the second transaction blocked on a lock the first holds.
      const blockedOnLock = async () =>
        (await t.runtime.db.query("SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1", [pid]))[0]?.wait_event_type === "Lock";
      while (!secondDone && !(await blockedOnLock())) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(secondDone).toBe(false);
      await first.commitTransaction();
      await waiting;
      await second.commitTransaction();
    } finally {
      await first.release();
      await second.release();
    }
    expect(await totalsOf(created.id)).toEqual({ paid: 15 * MINUTE, unpaid: 30 * MINUTE });
    // The shift's list of breaks, which reads return, was written after the lock too: it holds both.
    expect(await listedBreaks(created.id)).toEqual([
      { startTime: "2026-05-06T11:00:00.000+05:30", endTime: "2026-05-06T11:15:00.000+05:30", paid: true },
      { startTime: "2026-05-06T13:00:00.000+05:30", endTime: "2026-05-06T13:30:00.000+05:30", paid: false },
    ]);
  });

  it("list the breaks of shifts that had them before the lists were kept", async () => {
    const created = await dayShift("2026-05-08", [
      ["15:00:00", "15:10:00", true],
      ["12:00:00", "12:30:00", false],
    ]);
    const withoutBreaks = await dayShift("2026-05-09");
    await t.rerunMigration(new KeepShiftBreakLists1763903800000());
    expect(await listedBreaks(created.id)).toEqual([
      { startTime: "2026-05-08T12:00:00.000+05:30", endTime: "2026-05-08T12:30:00.000+05:30", paid: false },
      { startTime: "2026-05-08T15:00:00.000+05:30", endTime: "2026-05-08T15:10:00.000+05:30", paid: true },
    ]);
    expect(await listedBreaks(withoutBreaks.id)).toEqual([]);
  });

  it("are filled in for shifts that ended before the totals were kept", async () => {
    const created = await dayShift("2026-05-07", [["12:00:00", "12:20:00.999", false]]);
    await t.rerunMigration(new KeepShiftBreakTotals1763900700000());
    expect(await totalsOf(created.id)).toEqual({ paid: 0, unpaid: 20 * MINUTE + 999 });
  });
});
