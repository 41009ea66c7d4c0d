import { BUSY, OFF } from "./roster-problem";
import { RosterRules } from "./roster-rules";

/**
 * One person's whole row rebuilt optimally against everyone else's, by dynamic programming over
 * their days. A state is the value of the last day (a template, a kept shift of no template, or
 * off), the length of the current run of shifts or days off, whether that run began on day 0
 * (exempt from the minimums), and the weekends used so far: the rules on runs, on what may follow
 * what, on days off and on weekends are kept by construction. The minute limits are kept by a price
 * per minute searched by bisection; the per-template maximums and weekly minutes are left to the
 * caller's scan. `stepCost(d, v)` is the soft cost of the value v (template index, or -1 off) on day d;
 * the person's `followCost` is added where one template follows another.
 * Answers null when no row keeps the rules kept by construction (the kept days may break one);
 * when no price makes the minutes fit, the last row tried.
 */
export function rebuildRow(rules: RosterRules, i: number, current: Int16Array, stepCost: (d: number, v: number) => number): Int16Array | null {
  const limits = rules.problem.staff[i].limits;
  const minMinutes = limits.minMinutes ?? 0;
  const maxMinutes = limits.maxMinutes ?? Infinity;
  const h = rules.days;
  const T = rules.templateCount;
  const costs = new Float64Array(h * (T + 1));
  for (let d = 0; d < h; d++) for (let v = -1; v < T; v++) costs[d * (T + 1) + v + 1] = stepCost(d, v);
  const minutesOf = (row: Int16Array) => {
    let m = 0;
    for (let d = 0; d < h; d++) m += row[d] >= 0 ? rules.minutes[row[d]] : row[d] === BUSY ? rules.busyMinutes[i][d] : 0;
    return m;
  };
  let row = bestRow(rules, i, current, costs, 0);
  if (!row) return null;
  let m = minutesOf(row);
  if (m >= minMinutes && m <= maxMinutes) return row;
  // Too many minutes: a positive price; too few: a negative one. Bisect until the row fits.
  const sign = m > maxMinutes ? 1 : -1;
  let low = 0;
  let high = 1 / 60;
  let fitting: Int16Array | null = null;
  for (let k = 0; k < 30 && !fitting; k++, high *= 4) {
    row = bestRow(rules, i, current, costs, sign * high);
    if (!row) return null;
    m = minutesOf(row);
    if (m >= minMinutes && m <= maxMinutes) fitting = row;
    else if (sign > 0 ? m > maxMinutes : m < minMinutes) low = high;
    else break;
  }
  if (fitting) return fitting;
  // `high` overshoots: narrow down to the smallest price that fits.
  let last: Int16Array | null = row;
  for (let k = 0; k < 12; k++) {
    const price = (low + high) / 2;
    const candidate = bestRow(rules, i, current, costs, sign * price);
    if (!candidate) return null;
    const cm = minutesOf(candidate);
    if (cm >= minMinutes && cm <= maxMinutes) return candidate;
    if (sign > 0 ? cm > maxMinutes : cm < minMinutes) low = price;
    else {
      high = price;
      last = candidate;
    }
  }
  return last;
}

/**
 * Templates that forbid the same next templates (and cost the same before each) are one class:
 * the row's state needs only the class of the last day, and each day keeps, per class before and
 * class after, the cheapest template that may follow. A year of 32 shift types has 8 classes.
 */
function templateClasses(rules: RosterRules, follow: number[] | undefined): { classOf: Int32Array; members: number[][] } {
  const T = rules.templateCount;
  const keys = new Map<string, number>();
  const classOf = new Int32Array(T);
  const members: number[][] = [];
  for (let t = 0; t < T; t++) {
    const key = `${rules.forbiddenNext.subarray(t * T, (t + 1) * T).join("")}|${follow ? follow.slice(t * T, (t + 1) * T).join(",") : ""}`;
    let c = keys.get(key);
    if (c === undefined) {
      keys.set(key, (c = members.length));
      members.push([]);
    }
    classOf[t] = c;
    members[c].push(t);
  }
  return { classOf, members };
}

/** The cheapest row keeping the run, sequence, day-off and weekend rules, each minute priced at `price`. */
function bestRow(rules: RosterRules, i: number, current: Int16Array, costs: Float64Array, price: number): Int16Array | null {
  const limits = rules.problem.staff[i].limits;
  const h = rules.days;
  const T = rules.templateCount;
  const follow = rules.problem.staff[i].followCost;
  const { members } = templateClasses(rules, follow);
  const C = members.length;
  const maxRun = limits.maxConsecutiveShifts ?? Infinity;
  const minRun = limits.minConsecutiveShifts ?? 0;
  const minOff = limits.minConsecutiveDaysOff ?? 0;
  // Weekends are counted only when the limit can bind.
  const countWeekends = limits.maxWeekends !== undefined && limits.maxWeekends < rules.weekendCount;
  const maxWeekends = countWeekends ? limits.maxWeekends! : 0;
  // Values: 0..C-1 a template of that class, C a kept shift of no template, C+1 off.
  const BUSY_V = C;
  const OFF_V = C + 1;
  const V = C + 2;
  // Without a maximum, a run of shifts is only counted up to the longest minimum.
  const R = Math.min(h, Math.max(Number.isFinite(maxRun) ? maxRun : 0, minRun, minOff, 1)) + 1;
  const W = maxWeekends + 1;
  const S = V * R * 2 * W;
  const index = (v: number, r: number, e: number, w: number) => ((v * R + r) * 2 + e) * W + w;
  let cost = new Float64Array(S).fill(Infinity);
  let next = new Float64Array(S);
  const back = new Int32Array(h * S);
  // The template taken on each day in each state (-1 off, -2 a kept shift of no template).
  const taken = new Int16Array(h * S);
  const fixed = rules.fixed[i];
  const allowed = rules.allowed[i];
  // Per day: for each class before (C: none, after a day off or a kept shift) and class after, the cheapest template and its cost.
  const bestTemplate = new Int16Array((C + 1) * C);
  const bestCost = new Float64Array((C + 1) * C);
  for (let d = 0; d < h; d++) {
    next.fill(Infinity);
    const weekend = rules.weekendOf[d];
    const weekendDay = countWeekends && weekend >= 0;
    const sameWeekendAsYesterday = weekendDay && d > 0 && rules.weekendOf[d - 1] === weekend;
    const stepOf = (t: number) => costs[d * (T + 1) + t + 1] + price * rules.minutes[t];
    const mayTake = (t: number) => (fixed[d] ? current[d] === t : allowed[d * T + t] === 1);
    bestTemplate.fill(-1);
    for (let before = 0; before <= C; before++) {
      const from = before < C ? members[before][0] : -1;
      for (let after = 0; after < C; after++) {
        let found = -1;
        let value = Infinity;
        for (const t of members[after]) {
          if (!mayTake(t) || (from >= 0 && rules.forbiddenNext[from * T + t])) continue;
          const c = stepOf(t) + (follow && from >= 0 ? follow[from * T + t] : 0);
          if (c < value) [found, value] = [t, c];
        }
        bestTemplate[before * C + after] = found;
        bestCost[before * C + after] = value;
      }
    }
    const choices: number[] = [];
    if (fixed[d]) choices.push(current[d] === BUSY ? BUSY_V : current[d] === OFF ? OFF_V : members.findIndex((m) => m.includes(current[d])));
    else {
      choices.push(OFF_V);
      for (let c = 0; c < C; c++) if (bestTemplate[C * C + c] >= 0) choices.push(c);
    }
    const offCost = costs[d * (T + 1)];
    const busyCost = price * rules.busyMinutes[i][d];
    const relax = (to: number, value: number, from: number, template: number) => {
      if (value < next[to]) {
        next[to] = value;
        back[d * S + to] = from;
        taken[d * S + to] = template;
      }
    };
    // The step onto value v after value u (OFF_V on day 0): its template (-3: none may follow) and cost.
    const templateOf = (u: number, v: number) =>
      v === OFF_V ? OFF : v === BUSY_V ? BUSY : bestTemplate[(u < C ? u : C) * C + v] < 0 ? -3 : bestTemplate[(u < C ? u : C) * C + v];
    const costOf = (u: number, v: number) => (v === OFF_V ? offCost : v === BUSY_V ? busyCost : bestCost[(u < C ? u : C) * C + v]);
    if (d === 0) {
      for (const v of choices) {
        const works = v !== OFF_V;
        const w = works && weekendDay ? 1 : 0;
        const template = templateOf(OFF_V, v);
        if (template === -3 || w > maxWeekends || (works && maxRun < 1)) continue;
        relax(index(v, 1, 1, w), costOf(OFF_V, v), -1, template);
      }
    } else {
      for (let s = 0; s < S; s++) {
        const base = cost[s];
        if (base === Infinity) continue;
        const w = s % W;
        const e = Math.floor(s / W) % 2;
        const r = Math.floor(s / (W * 2)) % R;
        const u = Math.floor(s / (W * 2 * R));
        const wasWorking = u !== OFF_V;
        for (const v of choices) {
          const works = v !== OFF_V;
          let to: number;
          if (works) {
            if (wasWorking && r + 1 > maxRun) continue;
            if (!wasWorking && e === 0 && r < minOff) continue;
            const weekends = w + (weekendDay && !(sameWeekendAsYesterday && wasWorking) ? 1 : 0);
            if (weekends > maxWeekends) continue;
            to = wasWorking ? index(v, Math.min(r + 1, R - 1), e, weekends) : index(v, 1, 0, weekends);
          } else {
            if (wasWorking && e === 0 && r < minRun) continue;
            to = wasWorking ? index(v, 1, 0, w) : index(v, Math.min(r + 1, R - 1), e, w);
          }
          const template = templateOf(u, v);
          if (template !== -3) relax(to, base + costOf(u, v), s, template);
        }
      }
    }
    [cost, next] = [next, cost];
  }
  let end = -1;
  for (let s = 0; s < S; s++) if (cost[s] < Infinity && (end < 0 || cost[s] < cost[end])) end = s;
  if (end < 0) return null;
  const row = new Int16Array(h);
  for (let d = h - 1, s = end; d >= 0; d--) {
    row[d] = taken[d * S + s];
    s = back[d * S + s];
  }
  return row;
}
