import { OFF, RosterProblem } from "../../src/workflows/schedule-generation/solver/roster-problem";
import { rebuildRow } from "../../src/workflows/schedule-generation/solver/roster-row";
import { RosterRules } from "../../src/workflows/schedule-generation/solver/roster-rules";

// Ten days from a Thursday: weekends on days 2–3 and day 9. Early (0) and Night (1); Early may not follow Night.
function problem(limits: RosterProblem["staff"][0]["limits"], blocked: number[] = []): RosterProblem {
  return {
    days: 10,
    firstWeekday: 4,
    templates: [
      { key: "Early", minutes: 480, cannotBeFollowedBy: [] },
      { key: "Night", minutes: 600, cannotBeFollowedBy: [0] },
    ],
    staff: [{ key: "ann", blocked, fixed: [], limits, preferOn: [], preferOff: [] }],
    cover: [],
  };
}

/** Every row of the ten days (3^10), scanned against the rules: the cheapest that keeps them all. */
function bruteForce(rules: RosterRules, cost: (d: number, v: number) => number): number {
  let best = Infinity;
  const row = new Int16Array(10);
  for (let code = 0; code < 3 ** 10; code++) {
    let c = code;
    let sum = 0;
    for (let d = 0; d < 10; d++, c = Math.floor(c / 3)) {
      row[d] = (c % 3) - 1;
      sum += cost(d, row[d]);
    }
    if (sum < best && rules.scan(0, row).hard === 0) best = sum;
  }
  return best;
}

// Working pays and each day and shift pays differently, so the cheapest row presses on every limit.
const cost = (d: number, v: number) => (v === OFF ? 0 : -10 - ((d * 7 + v * 3) % 5));
const rowCost = (row: Int16Array) => Array.from(row).reduce((sum, v, d) => sum + cost(d, v), 0);

describe("rebuilding one person's row", () => {
  it("finds the cheapest row that keeps runs, days off, weekends, what may follow what and blocked shifts", () => {
    const rules = new RosterRules(
      problem({ maxConsecutiveShifts: 3, minConsecutiveShifts: 2, minConsecutiveDaysOff: 2, maxWeekends: 1 }, [4 * 2 + 0, 4 * 2 + 1, 6 * 2 + 1]),
    );
    const row = rebuildRow(rules, 0, new Int16Array(10).fill(OFF), cost)!;
    expect(rules.violations([row])).toEqual([]);
    expect(rowCost(row)).toBe(bruteForce(rules, cost));
  });

  it("keeps the minute limits: too many minutes and too few both end inside them", () => {
    const many = new RosterRules(problem({ maxConsecutiveShifts: 4, minConsecutiveDaysOff: 2, maxMinutes: 2000 }));
    const fewer = rebuildRow(many, 0, new Int16Array(10).fill(OFF), cost)!;
    expect(many.violations([fewer])).toEqual([]);
    const few = new RosterRules(problem({ minMinutes: 2400, maxWeekends: 1 }));
    const more = rebuildRow(few, 0, new Int16Array(10).fill(OFF), (d, v) => (v === OFF ? -5 : 0))!;
    expect(few.violations([more])).toEqual([]);
  });

  it("keeps a per-template maximum, and hands the person's prices on to the next rebuild", () => {
    // Early pays on most days: unlimited, the row would be Early throughout.
    const early = (d: number, v: number) => (v === OFF ? 0 : v === 0 ? -20 : -10 - (d % 3));
    const rules = new RosterRules(problem({ maxShifts: [2, null], maxConsecutiveShifts: 4 }));
    const prices = { template: new Float64Array(2), minute: 0 };
    const row = rebuildRow(rules, 0, new Int16Array(10).fill(OFF), early, prices)!;
    expect(rules.violations([row])).toEqual([]);
    expect(Array.from(row).filter((v) => v === 0).length).toBeLessThanOrEqual(2);
    expect(prices.template[0]).toBeGreaterThan(0);
    const again = rebuildRow(rules, 0, row, early, prices)!;
    expect(rules.violations([again])).toEqual([]);
  });

  it("answers null when the kept days themselves break a rule", () => {
    const kept = problem({});
    // A kept Night then a kept Early: nothing can make that row right.
    kept.staff[0].fixed = [
      { day: 3, template: 1 },
      { day: 4, template: 0 },
    ];
    const rules = new RosterRules(kept);
    expect(rebuildRow(rules, 0, rules.emptyRoster()[0], cost)).toBeNull();
  });
});
