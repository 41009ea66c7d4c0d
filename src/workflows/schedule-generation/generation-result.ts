import { BuiltProblem } from "./generation-problem";
import { CoverageOutcome, GenerationResult, GenerationViolation, PersonOutcome, ReasonCount, UnfilledNeed } from "./generation.entity";
import { OFF, RosterSolution } from "./solver";
import { RosterRules } from "./solver/roster-rules";

/**
 * The result of a generation, explained: the objective in its parts, coverage per day and
 * template, and for each need left short the reason each staff member not on it was kept out
 * (the first that applies: eligibility, one shift a day, what may not follow what, the limit the
 * shift would break, or only cost), and each person's range against their limits.
 */
export function explain(built: BuiltProblem, solution: RosterSolution, draftIds: string[]): GenerationResult {
  const { problem, dates, reasons } = built;
  const rules = new RosterRules(problem);
  const T = problem.templates.length;
  const roster = solution.roster.map((row) => Int16Array.from(row));
  const counts = new Int32Array(problem.days * T);
  roster.forEach((row) => row.forEach((v, d) => v >= 0 && counts[d * T + v]++));

  const coverage: CoverageOutcome[] = problem.cover.map((c) => ({
    date: dates[c.day],
    templateId: problem.templates[c.template].key,
    required: c.count,
    assigned: counts[c.day * T + c.template],
  }));
  const unfilled: UnfilledNeed[] = problem.cover
    .filter((c) => counts[c.day * T + c.template] < c.count)
    .map((c) => {
      const tally = new Map<string, number>();
      roster.forEach((row, i) => {
        if (row[c.day] === c.template) return;
        const code = whyNot(rules, reasons[i], row, i, c.day, c.template);
        tally.set(code, (tally.get(code) ?? 0) + 1);
      });
      const counted: ReasonCount[] = [...tally].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
      return { date: dates[c.day], templateId: problem.templates[c.template].key, missing: c.count - counts[c.day * T + c.template], reasons: counted };
    });

  const people: PersonOutcome[] = roster.map((row, i) => {
    const person = problem.staff[i];
    let minutes = 0;
    let shifts = 0;
    const weekends = new Set<number>();
    row.forEach((v, d) => {
      if (v === OFF) return;
      shifts++;
      minutes += v >= 0 ? problem.templates[v].minutes : rules.busyMinutes[i][d];
      if (rules.weekendOf[d] >= 0) weekends.add(rules.weekendOf[d]);
    });
    const { minMinutes, maxMinutes, maxWeekends } = person.limits;
    return {
      workerId: person.key,
      minutes,
      shifts,
      weekends: weekends.size,
      minMinutes: minMinutes ?? null,
      maxMinutes: maxMinutes ?? null,
      maxWeekends: maxWeekends ?? null,
    };
  });

  const hardViolations: GenerationViolation[] = solution.violations.map((v) => ({
    workerId: problem.staff[v.staff].key,
    rule: v.rule === "MAX_WEEKLY_MINUTES" ? "MAX_WEEKLY_HOURS" : v.rule,
    date: v.day === undefined ? null : dates[v.day],
    message: v.detail.replace(/day (\d+)/g, (_, d: string) => dates[Number(d)] ?? `day ${d}`).replace(/ of [0-9a-f-]{36}/g, ""),
  }));
  return {
    objective: solution.objective,
    ...solution.parts,
    hardViolations,
    coverage,
    unfilled,
    people,
    draftIds,
    searchSeconds: Math.round(solution.elapsedMs / 100) / 10,
  };
}

/** Why person i does not work template t on day d in the roster. */
function whyNot(rules: RosterRules, reasons: Map<number, string>, row: Int16Array, i: number, d: number, t: number): string {
  const T = rules.templateCount;
  const blocked = reasons.get(d * T + t);
  if (blocked) return blocked;
  if (row[d] !== OFF) return "ONE_SHIFT_A_DAY";
  if (
    (d > 0 && row[d - 1] >= 0 && rules.forbiddenNext[row[d - 1] * T + t]) ||
    (d + 1 < rules.days && row[d + 1] >= 0 && rules.forbiddenNext[t * T + row[d + 1]])
  )
    return "CANNOT_BE_FOLLOWED_BY";
  const before = new Set<string>();
  rules.scan(i, row, (rule) => before.add(rule));
  row[d] = t;
  let broken: string | undefined;
  rules.scan(i, row, (rule) => (broken ??= before.has(rule) ? undefined : rule));
  row[d] = OFF;
  if (broken === "MAX_WEEKLY_MINUTES") return "MAX_WEEKLY_HOURS";
  return broken ?? "COST";
}
