import { BUSY, OFF } from "./roster-problem";
import { RosterRules } from "./roster-rules";

/** A person's prices from one rebuild to the next: per shift of each template, and per minute. */
export interface RowPrices {
  template: Float64Array;
  minute: number;
}

/**
 * One person's whole row rebuilt optimally against everyone else's, by dynamic programming over
 * their days. A state is the value of the last day (a template, a kept shift of no template, or
 * off), the length of the current run of shifts or days off, whether that run began on day 0
 * (exempt from the minimums), and the weekends used so far: the rules on runs, on what may follow
 * what, on days off and on weekends are kept by construction. The minute limits are kept by a price
 * per minute searched by bisection; the per-template maximums by a price per shift of each template
 * worked too often, raised until the row keeps them (`prices`: the person's, kept by the caller from
 * one rebuild to the next, so a later rebuild starts where the last one ended), then by moving the
 * cheapest surplus days to other templates (keepMaximums). The weekly minutes are left to the
 * caller's scan. `stepCost(d, v)` is the soft cost of the value v (template index, or -1 off) on day d;
 * the person's `followCost` is added where one template follows another.
 * Answers null when no row keeps the rules kept by construction (the kept days may break one);
 * when no price makes the minutes fit, the last row tried.
 */
export function rebuildRow(
  rules: RosterRules,
  i: number,
  current: Int16Array,
  stepCost: (d: number, v: number) => number,
  prices: RowPrices = { template: new Float64Array(rules.templateCount), minute: 0 },
): Int16Array | null {
  const limits = rules.problem.staff[i].limits;
  const minMinutes = limits.minMinutes ?? 0;
  const maxMinutes = limits.maxMinutes ?? Infinity;
  const h = rules.days;
  const T = rules.templateCount;
  // Each day's costs get a fixed jitter below a hundredth: days that cost the same (a year of covered
  // needs, each shift one over) would otherwise all be worked or none, and no minute price could fit
  // a narrow range of minutes between.
  const steps = new Float64Array(h * (T + 1));
  for (let d = 0; d < h; d++) for (let v = -1; v < T; v++) steps[d * (T + 1) + v + 1] = stepCost(d, v) + jitter(d * (T + 1) + v + 1);
  const costs = new Float64Array(h * (T + 1));
  const max = limits.maxShifts;
  const count = new Int32Array(T);
  const minutesOf = (row: Int16Array) => {
    let m = 0;
    for (let d = 0; d < h; d++) m += row[d] >= 0 ? rules.minutes[row[d]] : row[d] === BUSY ? rules.busyMinutes[i][d] : 0;
    return m;
  };
  const template = prices.template;
  let fitted: Int16Array | null = null;
  for (let round = 0; round < PRICE_ROUNDS; round++) {
    for (let d = 0; d < h; d++) for (let t = 0; t < T; t++) costs[d * (T + 1) + t + 1] = steps[d * (T + 1) + t + 1] + template[t];
    for (let d = 0; d < h; d++) costs[d * (T + 1)] = steps[d * (T + 1)];
    const found = fitMinutes(rules, i, current, costs, minMinutes, maxMinutes, minutesOf, prices.minute);
    if (!found) return null;
    const row = (fitted = found.row);
    prices.minute = found.price;
    if (!max) break;
    count.fill(0);
    for (let d = 0; d < h; d++) if (row[d] >= 0) count[row[d]]++;
    let over = false;
    for (let t = 0; t < T; t++) {
      const cap = max[t];
      if (cap === null || cap === undefined) continue;
      // Doubled while worked too often; eased when well under, so a price set by other days' needs does not stay.
      if (count[t] > cap) {
        over = true;
        template[t] = Math.max(PRICE_STEP, template[t] * 2);
      } else if (count[t] < cap - 1) template[t] *= 0.75;
    }
    if (!over) break;
  }
  if (fitted) keepMaximums(rules, i, fitted, steps, minMinutes, maxMinutes, minutesOf(fitted));
  return fitted;
}

/** A fixed number in [0, 0.01) for each cell (a multiplicative hash). */
function jitter(k: number): number {
  return ((Math.imul(k + 1, 0x9e3779b1) >>> 0) / 4294967296) * 0.01;
}

/** Rounds of the per-template prices in one rebuild, and the first price (in the objective's units). */
const PRICE_ROUNDS = 6;
const PRICE_STEP = 4;

/**
 * The cheapest row (bestRow) whose minutes fit the limits, by a price per minute: from `start`
 * (the price that fitted last time), moved up while the row has too many minutes or down while
 * too few, by steps growing fourfold, then bisected between the last price on each side.
 */
function fitMinutes(
  rules: RosterRules,
  i: number,
  current: Int16Array,
  costs: Float64Array,
  minMinutes: number,
  maxMinutes: number,
  minutesOf: (row: Int16Array) => number,
  start: number,
): { row: Int16Array; price: number } | null {
  const at = (price: number) => {
    const row = bestRow(rules, i, current, costs, price);
    return row && { row, price, minutes: minutesOf(row) };
  };
  const fits = (m: number) => m >= minMinutes && m <= maxMinutes;
  const first = at(start);
  if (!first || fits(first.minutes)) return first;
  const up = first.minutes > maxMinutes;
  const short = (m: number) => (up ? m > maxMinutes : m < minMinutes);
  let near = first;
  let far: { row: Int16Array; price: number; minutes: number } | null = null;
  for (let k = 0, step = 1 / 60; k < 30 && !far; k++, step *= 4) {
    const probe = at(start + (up ? step : -step));
    if (!probe || fits(probe.minutes)) return probe;
    if (short(probe.minutes)) near = probe;
    else far = probe;
  }
  // No price fits (kept days may decide): the row closest from the side it came.
  if (!far) return near;
  for (let k = 0; k < 16; k++) {
    const probe = at((near.price + far.price) / 2);
    if (!probe || fits(probe.minutes)) return probe;
    if (short(probe.minutes)) near = probe;
    else far = probe;
  }
  return far;
}

/**
 * A template worked more often than its maximum gives up its cheapest surplus days to other
 * templates: each such day takes the cheapest template the person may work there that is under its
 * own maximum, may follow the day before and be followed by the day after, and keeps the minutes
 * within the limits. Runs, days off and weekends stay as they are; what cannot move stays over.
 */
function keepMaximums(rules: RosterRules, i: number, row: Int16Array, costs: Float64Array, minMinutes: number, maxMinutes: number, minutes: number): void {
  const max = rules.problem.staff[i].limits.maxShifts;
  if (!max) return;
  const h = rules.days;
  const T = rules.templateCount;
  const follow = rules.problem.staff[i].followCost;
  const fixed = rules.fixed[i];
  const allowed = rules.allowed[i];
  const count = new Int32Array(T);
  for (let d = 0; d < h; d++) if (row[d] >= 0) count[row[d]]++;
  const capOf = (t: number) => max[t] ?? Infinity;
  /** The cheapest other template for day d and what it costs more than the one held, or -1. */
  const replacement = (d: number): [number, number] => {
    const t = row[d];
    const before = d > 0 ? row[d - 1] : -1;
    const after = d + 1 < h ? row[d + 1] : -1;
    const costOf = (v: number) =>
      costs[d * (T + 1) + v + 1] + (follow && before >= 0 ? follow[before * T + v] : 0) + (follow && after >= 0 ? follow[v * T + after] : 0);
    let found = -1;
    let delta = Infinity;
    for (let u = 0; u < T; u++) {
      if (u === t || count[u] >= capOf(u) || !allowed[d * T + u]) continue;
      if ((before >= 0 && rules.forbiddenNext[before * T + u]) || (after >= 0 && rules.forbiddenNext[u * T + after])) continue;
      const m = minutes - rules.minutes[t] + rules.minutes[u];
      if (m < minMinutes || m > maxMinutes) continue;
      const c = costOf(u) - costOf(t);
      if (c < delta) [found, delta] = [u, c];
    }
    return [found, delta];
  };
  for (let t = 0; t < T; t++) {
    if (count[t] <= capOf(t)) continue;
    const days: { d: number; delta: number }[] = [];
    for (let d = 0; d < h; d++) if (row[d] === t && !fixed[d]) days.push({ d, delta: replacement(d)[1] });
    days.sort((a, b) => a.delta - b.delta);
    for (const { d } of days) {
      if (count[t] <= capOf(t)) break;
      // Earlier changes may have closed the template first found: look again.
      const [u] = replacement(d);
      if (u < 0) continue;
      minutes += rules.minutes[u] - rules.minutes[t];
      count[t]--;
      count[u]++;
      row[d] = u;
    }
  }
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
      // Loops over the last value, the next value and the run before the weekends: all but the
      // weekend count decide whether the step is allowed and where it leads, so the innermost loop is plain arithmetic.
      for (let u = 0; u < V; u++) {
        const wasWorking = u !== OFF_V;
        for (const v of choices) {
          const template = templateOf(u, v);
          if (template === -3) continue;
          const step = costOf(u, v);
          const works = v !== OFF_V;
          const added = works && weekendDay && !(sameWeekendAsYesterday && wasWorking) ? 1 : 0;
          for (let r = 1; r < R; r++) {
            for (let e = 0; e < 2; e++) {
              let to: number;
              if (works) {
                if (wasWorking && r + 1 > maxRun) continue;
                if (!wasWorking && e === 0 && r < minOff) continue;
                to = wasWorking ? index(v, Math.min(r + 1, R - 1), e, added) : index(v, 1, 0, added);
              } else {
                if (wasWorking && e === 0 && r < minRun) continue;
                to = wasWorking ? index(v, 1, 0, 0) : index(v, Math.min(r + 1, R - 1), e, 0);
              }
              const from = index(u, r, e, 0);
              const at = d * S;
              for (let w = 0; w + added < W; w++, to++) {
                const value = cost[from + w] + step;
                if (value < next[to]) {
                  next[to] = value;
                  back[at + to] = from + w;
                  taken[at + to] = template;
                }
              }
            }
          }
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
