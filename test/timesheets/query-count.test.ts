import { TestService } from "../support/harness";
import { countStatements } from "../support/statements";
import { workplace, Workplace } from "../support/workplace";

const NESTED = `query ($s: String!, $e: String!) {
  timesheets(startDate: $s, endDate: $e) {
    shifts { id duration breaks { name } employee { name } role { name } location { name breakTypes { name } } notes { text } }
    totals { duration }
  }
}`;

describe("nested shift lists cost a fixed number of SQL statements", () => {
  let t: TestService;
  let w: Workplace;
  beforeAll(async () => {
    t = await TestService.start({ now: "2026-04-01T12:00:00.000Z" });
    w = await workplace(t);
    await t.as(w.org.token).post(`/api/organizations/${w.org.id}/locations/${w.locationId}/breaks`, { name: "Lunch", durationMinutes: 30 });
  });
  afterAll(() => t.stop());

  /** Adds `n` closed shifts, each with a break and a note, spread over ten staff members, on 2 March. */
  async function addShifts(n: number, firstSlot: number) {
    const db = t.runtime.db;
    const staff = await Promise.all(Array.from({ length: 10 }, () => t.staffWithToken(w.org, "Worker")));
    await db.query(
      `INSERT INTO shifts (organization_id, employee_id, location_id, role_id, start_time, end_time, hourly_wage)
       SELECT $1, ($2::uuid[])[1 + i % 10], $3, $4, '2026-03-02T10:00:00Z'::timestamptz + (i / 10) * interval '2 minutes', '2026-03-02T10:00:00Z'::timestamptz + (i / 10) * interval '2 minutes' + interval '1 minute', 15
       FROM generate_series($5::int, $5::int + $6::int - 1) i`,
      [w.org.id, staff.map((s) => s.staff.id), w.locationId, w.roleId, firstSlot * 10, n],
    );
    await db.query(
      `INSERT INTO shift_breaks (organization_id, shift_id, start_time, end_time, name) SELECT organization_id, id, start_time, start_time + interval '10 seconds', 'Pause' FROM shifts WHERE organization_id = $1 AND NOT EXISTS (SELECT 1 FROM shift_breaks b WHERE b.shift_id = shifts.id)`,
      [w.org.id],
    );
    await db.query(
      `INSERT INTO shift_notes (organization_id, shift_id, text) SELECT organization_id, id, 'ok' FROM shifts WHERE organization_id = $1 AND NOT EXISTS (SELECT 1 FROM shift_notes n WHERE n.shift_id = shifts.id)`,
      [w.org.id],
    );
  }

  async function statementsForList(expectedShifts: number): Promise<number> {
    const counter = countStatements();
    try {
      const res = await t.gql(w.org.token, NESTED, { s: "2026-03-02", e: "2026-03-02" });
      expect(res.errors).toBeUndefined();
      expect(res.data!.timesheets.shifts).toHaveLength(expectedShifts);
      expect(
        res.data!.timesheets.shifts.every(
          (s: { employee: unknown; notes: unknown[]; breaks: unknown[] }) => s.employee && s.notes.length === 1 && s.breaks.length === 1,
        ),
      ).toBe(true);
      return counter.count;
    } finally {
      counter.stop();
    }
  }

  it("is the same for 10 and for 100 shifts with their employee, role, location, break types and notes", async () => {
    await addShifts(10, 0);
    const forTen = await statementsForList(10);
    await addShifts(90, 1);
    const forHundred = await statementsForList(100);
    expect(forHundred).toBe(forTen);
    // Shifts, breaks, locked days, then one each for staff, roles, locations, notes, break types (the
    // token check runs before the request's own work and is not counted).
    expect(forTen).toBeGreaterThanOrEqual(7);
    expect(forTen).toBeLessThanOrEqual(12);
  });
});
