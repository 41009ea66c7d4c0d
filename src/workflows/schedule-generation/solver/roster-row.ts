import { BUSY, OFF } from "./roster-problem";
import { RosterRules } from "./roster-rules";

/**
 * One person's whole row rebuilt optimally against everyone else's, by dynamic programming over
 * their days. A state is the value of the last day (a template, a kept shift of no template, or
 * off), the length of the current run of shifts or days off, whether that run began on day 0
 * (exempt from the minimums), and the weekends used so far: the rules on runs, on what may follow
 * what, on days off and on weekends are kept by construction. The minute limits are kept by a price
 * per minute searched by bisection; the per-template maximums and weekly minutes are left to the
 * caller's scan. `stepCost(d, v)` is the soft cost of the value v (template index, or -1 off) on day d.
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

/** The cheapest row keeping the run, sequence, day-off and weekend rules, each minute priced at `price`. */
function bestRow(rules: RosterRules, i: number, current: Int16Array, costs: Float64Array, price: number): Int16Array | null {
  const limits = rules.problem.staff[i].limits;
  const h = rules.days;
  const T = rules.templateCount;
  // Without a maximum, a run of shifts is only counted up to the longest minimum.
  const maxRun = limits.maxConsecutiveShifts ?? Infinity;
  const minRun = limits.minConsecutiveShifts ?? 0;
  const minOff = limits.minConsecutiveDaysOff ?? 0;
  const maxWeekends = Math.min(limits.maxWeekends ?? rules.weekendCount, rules.weekendCount);
  // Values: 0..T-1 templates, T a kept shift of no template, T+1 off.
  const V = T + 2;
  const R = Math.min(h, Math.max(Number.isFinite(maxRun) ? maxRun : 0, minRun, minOff, 1)) + 1;
  const W = maxWeekends + 1;
  const S = V * R * 2 * W;
  const index = (v: number, r: number, e: number, w: number) => ((v * R + r) * 2 + e) * W + w;
  let cost = new Float64Array(S).fill(Infinity);
  let next = new Float64Array(S);
  const back = new Int32Array(h * S);
  const fixed = rules.fixed[i];
  const allowed = rules.allowed[i];
  for (let d = 0; d < h; d++) {
    next.fill(Infinity);
    const weekend = rules.weekendOf[d];
    const sameWeekendAsYesterday = weekend >= 0 && d > 0 && rules.weekendOf[d - 1] === weekend;
    const choices: number[] = [];
    if (fixed[d]) choices.push(current[d] === BUSY ? T : current[d] === OFF ? T + 1 : current[d]);
    else {
      choices.push(T + 1);
      for (let t = 0; t < T; t++) if (allowed[d * T + t]) choices.push(t);
    }
    const stepOf = (v: number) =>
      (v === T + 1 ? costs[d * (T + 1)] : v === T ? 0 : costs[d * (T + 1) + v + 1] + price * rules.minutes[v]) +
      (v === T ? price * rules.busyMinutes[i][d] : 0);
    const relax = (to: number, value: number, from: number) => {
      if (value < next[to]) {
        next[to] = value;
        back[d * S + to] = from;
      }
    };
    if (d === 0) {
      for (const v of choices) {
        const works = v !== T + 1;
        const w = works && weekend >= 0 ? 1 : 0;
        if (w > maxWeekends || (works && maxRun < 1)) continue;
        relax(index(v, 1, 1, w), stepOf(v), -1);
      }
    } else {
      for (let s = 0; s < S; s++) {
        const base = cost[s];
        if (base === Infinity) continue;
        const w = s % W;
        const e = Math.floor(s / W) % 2;
        const r = Math.floor(s / (W * 2)) % R;
        const u = Math.floor(s / (W * 2 * R));
        const wasWorking = u !== T + 1;
        for (const v of choices) {
          const works = v !== T + 1;
          let to: number;
          if (works) {
            if (wasWorking) {
              if (r + 1 > maxRun) continue;
              if (u < T && v < T && rules.forbiddenNext[u * T + v]) continue;
            } else if (e === 0 && r < minOff) continue;
            const weekends = w + (weekend >= 0 && !(sameWeekendAsYesterday && wasWorking) ? 1 : 0);
            if (weekends > maxWeekends) continue;
            to = wasWorking ? index(v, Math.min(r + 1, R - 1), e, weekends) : index(v, 1, 0, weekends);
          } else {
            if (wasWorking && e === 0 && r < minRun) continue;
            to = wasWorking ? index(v, 1, 0, w) : index(v, Math.min(r + 1, R - 1), e, w);
          }
          relax(to, base + stepOf(v), s);
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
    const v = Math.floor(s / (W * 2 * R));
    row[d] = v === T + 1 ? OFF : v === T ? BUSY : v;
    s = back[d * S + s];
  }
  return row;
}
