import { BUSY, HardRule, HardViolation, ObjectiveParts, OFF, Roster, RosterProblem } from "./roster-problem";

/** How a hard rule's breach is reported while a roster is scanned: rule, day, what, and its size in the search's units. */
type Report = (rule: HardRule, day: number | undefined, detail: string, amount: number) => void;

/**
 * The rules of a problem compiled to arrays, and the one scan of a person's days that both the
 * search (as a penalty) and the result (as a list of violations) use.
 */
export class RosterRules {
  readonly days: number;
  readonly templateCount: number;
  /** Per person: 1 where day × templates + template may be worked. */
  readonly allowed: Uint8Array[];
  /** Per person: 1 on days kept as they are. */
  readonly fixed: Uint8Array[];
  /** Per person: minutes of the kept shifts of no template, by day. */
  readonly busyMinutes: Int32Array[];
  /** Weekend number of each day, -1 on weekdays; calendar week number of each day. */
  readonly weekendOf: Int32Array;
  readonly weekOf: Int32Array;
  readonly weekendCount: number;
  readonly weekCount: number;
  readonly forbiddenNext: Uint8Array;
  readonly minutes: Int32Array;
  /** Per person, per day × (templates + 1): the preference cost of working that template (last slot: off). */
  readonly preferenceCost: Float64Array[];

  constructor(readonly problem: RosterProblem) {
    const h = (this.days = problem.days);
    const T = (this.templateCount = problem.templates.length);
    this.minutes = Int32Array.from(problem.templates.map((t) => t.minutes));
    this.forbiddenNext = new Uint8Array(T * T);
    problem.templates.forEach((t, a) => t.cannotBeFollowedBy.forEach((b) => (this.forbiddenNext[a * T + b] = 1)));
    this.weekendOf = new Int32Array(h).fill(-1);
    this.weekOf = new Int32Array(h);
    let weekends = 0;
    for (let d = 0; d < h; d++) {
      const weekday = ((problem.firstWeekday - 1 + d) % 7) + 1;
      this.weekOf[d] = Math.floor((((problem.firstWeekday - (problem.workweekStart ?? 1) + 7) % 7) + d) / 7);
      if (weekday === 6) this.weekendOf[d] = weekends++;
      else if (weekday === 7) this.weekendOf[d] = d > 0 ? this.weekendOf[d - 1] : weekends++;
    }
    this.weekendCount = weekends;
    this.weekCount = h ? this.weekOf[h - 1] + 1 : 0;
    this.allowed = problem.staff.map((p) => {
      const mask = new Uint8Array(h * T).fill(1);
      for (const k of p.blocked) mask[k] = 0;
      p.limits.maxShifts?.forEach((max, t) => {
        if (max === 0) for (let d = 0; d < h; d++) mask[d * T + t] = 0;
      });
      return mask;
    });
    this.fixed = problem.staff.map((p) => {
      const days = new Uint8Array(h);
      for (const f of p.fixed) days[f.day] = 1;
      return days;
    });
    this.busyMinutes = problem.staff.map((p) => {
      const minutes = new Int32Array(h);
      for (const f of p.fixed) if (f.template < 0) minutes[f.day] += f.minutes ?? 0;
      return minutes;
    });
    this.preferenceCost = problem.staff.map((p) => {
      const cost = new Float64Array(h * (T + 1));
      for (const pref of p.preferOn) {
        // Missed: every value of the day but the wished ones costs the weight.
        for (let v = 0; v <= T; v++) if (v === T || (pref.templates !== null && !pref.templates.includes(v))) cost[pref.day * (T + 1) + v] += pref.weight;
      }
      for (const pref of p.preferOff)
        for (let v = 0; v < T; v++) if (pref.templates === null || pref.templates.includes(v)) cost[pref.day * (T + 1) + v] += pref.weight;
      return cost;
    });
  }

  /** A roster with every person off but for their fixed days. */
  emptyRoster(): Roster {
    return this.problem.staff.map((p) => {
      const row = new Int16Array(this.days).fill(OFF);
      for (const f of p.fixed) row[f.day] = f.template < 0 ? BUSY : f.template;
      return row;
    });
  }

  /**
   * One person's days against their hard rules and soft costs: answers the soft cost and sets
   * `hard` to the size of what is broken (0: nothing), reporting each breach to `report`.
   */
  scan(i: number, row: Int16Array, report?: Report): { hard: number; soft: number } {
    const h = this.days;
    const T = this.templateCount;
    const person = this.problem.staff[i];
    const limits = person.limits;
    const prefs = this.preferenceCost[i];
    const shiftCost = person.shiftCost;
    const premiumCost = person.premiumCost;
    const followCost = person.followCost;
    let hard = 0;
    let soft = 0;
    const add = (rule: HardRule, day: number | undefined, amount: number, detail: () => string) => {
      hard += amount;
      report?.(rule, day, detail(), amount);
    };
    const perTemplate = new Int32Array(T);
    const weekMinutes = limits.maxWeeklyMinutes !== undefined ? new Int32Array(this.weekCount) : null;
    const weekendWorked = limits.maxWeekends !== undefined ? new Uint8Array(this.weekendCount) : null;
    let minutes = 0;
    let run = 0;
    let offRun = 0;
    let offStart = 0;
    const maxRun = limits.maxConsecutiveShifts ?? Infinity;
    const minRun = limits.minConsecutiveShifts ?? 0;
    const minOff = limits.minConsecutiveDaysOff ?? 0;
    for (let d = 0; d < h; d++) {
      const v = row[d];
      const works = v !== OFF;
      soft += prefs[d * (T + 1) + (v >= 0 ? v : T)];
      if (works) {
        if (v >= 0) {
          perTemplate[v]++;
          minutes += this.minutes[v];
          if (weekMinutes) weekMinutes[this.weekOf[d]] += this.minutes[v];
          if (shiftCost) soft += shiftCost[v];
          if (premiumCost) soft += premiumCost[d * T + v];
          if (followCost && d + 1 < h && row[d + 1] >= 0) soft += followCost[v * T + row[d + 1]];
          if (d + 1 < h && row[d + 1] >= 0 && this.forbiddenNext[v * T + row[d + 1]]) {
            add(
              "CANNOT_BE_FOLLOWED_BY",
              d + 1,
              1,
              () => `${this.problem.templates[row[d + 1]].key} on day ${d + 1} cannot follow ${this.problem.templates[v].key}`,
            );
          }
          if (!this.fixed[i][d] && !this.allowed[i][d * T + v]) add("BLOCKED", d, 1, () => `may not work ${this.problem.templates[v].key} on day ${d}`);
        } else {
          minutes += this.busyMinutes[i][d];
          if (weekMinutes) weekMinutes[this.weekOf[d]] += this.busyMinutes[i][d];
        }
        if (weekendWorked && this.weekendOf[d] >= 0) weekendWorked[this.weekendOf[d]] = 1;
        if (offRun > 0 && offStart > 0 && offRun < minOff) {
          add("MIN_CONSECUTIVE_DAYS_OFF", offStart, minOff - offRun, () => `${offRun} days off from day ${offStart}, at least ${minOff}`);
        }
        offRun = 0;
        run++;
        if (run === maxRun + 1) add("MAX_CONSECUTIVE_SHIFTS", d - maxRun, 1, () => `more than ${maxRun} shifts in a row from day ${d - maxRun}`);
        else if (run > maxRun + 1) add("MAX_CONSECUTIVE_SHIFTS", d - maxRun, 1, () => `one more shift in a row on day ${d}`);
      } else {
        if (run > 0 && d - run > 0 && run < minRun)
          add("MIN_CONSECUTIVE_SHIFTS", d - run, minRun - run, () => `${run} shifts in a row from day ${d - run}, at least ${minRun}`);
        run = 0;
        if (offRun === 0) offStart = d;
        offRun++;
      }
    }
    if (limits.maxShifts) {
      for (let t = 0; t < T; t++) {
        const max = limits.maxShifts[t];
        if (max !== null && max !== undefined && perTemplate[t] > max) {
          const n = perTemplate[t];
          add("MAX_SHIFTS", undefined, n - max, () => `${n} shifts of ${this.problem.templates[t].key}, at most ${max}`);
        }
      }
    }
    if (limits.maxMinutes !== undefined && minutes > limits.maxMinutes) {
      const max = limits.maxMinutes;
      add("MAX_MINUTES", undefined, 1 + (minutes - max) / 480, () => `${minutes} minutes, at most ${max}`);
    }
    if (limits.minMinutes !== undefined && minutes < limits.minMinutes) {
      const min = limits.minMinutes;
      add("MIN_MINUTES", undefined, 1 + (min - minutes) / 480, () => `${minutes} minutes, at least ${min}`);
    }
    if (weekMinutes) {
      const max = limits.maxWeeklyMinutes!;
      weekMinutes.forEach((m, w) => {
        if (m > max) add("MAX_WEEKLY_MINUTES", undefined, 1 + (m - max) / 480, () => `${m} minutes in week ${w + 1} of the range, at most ${max}`);
      });
    }
    if (weekendWorked) {
      let worked = 0;
      for (const w of weekendWorked) worked += w;
      const max = limits.maxWeekends!;
      if (worked > max) add("MAX_WEEKENDS", undefined, worked - max, () => `${worked} weekends, at most ${max}`);
    }
    return { hard, soft };
  }

  /** The cost of `n` people on a cover need. */
  static coverCost(need: { count: number; underWeight: number; overWeight: number }, n: number): number {
    return n < need.count ? (need.count - n) * need.underWeight : (n - need.count) * need.overWeight;
  }

  /** Every hard rule the roster breaks. */
  violations(roster: Roster): HardViolation[] {
    const found: HardViolation[] = [];
    roster.forEach((row, staff) => this.scan(staff, row, (rule, day, detail) => found.push({ staff, rule, ...(day === undefined ? {} : { day }), detail })));
    return found;
  }

  /** The objective of a roster, in its parts. */
  objective(roster: Roster): ObjectiveParts {
    const T = this.templateCount;
    const parts: ObjectiveParts = { coverUnder: 0, coverOver: 0, preferenceOn: 0, preferenceOff: 0, cost: 0, premiums: 0 };
    const counts = new Int32Array(this.days * T);
    roster.forEach((row, i) => {
      const person = this.problem.staff[i];
      row.forEach((v, d) => {
        if (v >= 0) {
          counts[d * T + v]++;
          parts.cost += person.shiftCost?.[v] ?? 0;
          parts.premiums +=
            (person.premiumCost?.[d * T + v] ?? 0) + (d + 1 < row.length && row[d + 1] >= 0 ? (person.followCost?.[v * T + row[d + 1]] ?? 0) : 0);
        }
      });
      for (const p of person.preferOn) if (!(row[p.day] >= 0 && (p.templates === null || p.templates.includes(row[p.day])))) parts.preferenceOn += p.weight;
      for (const p of person.preferOff) if (row[p.day] >= 0 && (p.templates === null || p.templates.includes(row[p.day]))) parts.preferenceOff += p.weight;
    });
    for (const need of this.problem.cover) {
      const n = counts[need.day * T + need.template];
      if (n < need.count) parts.coverUnder += (need.count - n) * need.underWeight;
      else parts.coverOver += (n - need.count) * need.overWeight;
    }
    return parts;
  }
}

export function total(parts: ObjectiveParts): number {
  return parts.coverUnder + parts.coverOver + parts.preferenceOn + parts.preferenceOff + parts.cost + parts.premiums;
}
