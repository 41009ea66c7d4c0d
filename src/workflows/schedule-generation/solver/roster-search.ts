import { HardViolation, ObjectiveParts, OFF, Roster, RosterProblem } from "./roster-problem";
import { rebuildRow } from "./roster-row";
import { RosterRules, total } from "./roster-rules";

export interface SearchOptions {
  timeLimitMs: number;
  seed?: number;
  /** Checked every few thousand moves: true ends the search with the best roster so far. */
  shouldStop?: () => boolean;
  /** Called about four times a second with the best objective so far. */
  onProgress?: (progress: SearchProgress) => void;
  /** Milliseconds, for the time limit (performance.now by default). */
  now?: () => number;
  tuning?: { hard?: number; start?: number; end?: number; repair?: number };
}

export interface SearchProgress {
  elapsedMs: number;
  bestObjective: number;
  /** Size of the hard rules the best roster still breaks (0: it keeps them all). */
  bestHard: number;
  moves: number;
}

export interface RosterSolution {
  /** Per person, per day: the template index, or -1 off (-2: a kept shift of no template). */
  roster: number[][];
  objective: number;
  parts: ObjectiveParts;
  violations: HardViolation[];
  moves: number;
  elapsedMs: number;
  stopped: boolean;
}

/** A small fast seeded generator (mulberry32): the same seed gives the same roster for the same moves. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Simulated annealing over whole rosters. A hard rule broken costs far more than any soft term,
 * graded by how far it is broken so the search can walk out of it. Moves: give a person another
 * shift (or a day off) on one day; swap two people's days; swap a block of 2–7 days between two
 * people. Every move re-scores only the people it touches (one pass over their days) and the
 * cover of the days it changes. The temperature falls with the time used, so a time limit is
 * always a full cooling schedule.
 */
export function solveRoster(problem: RosterProblem, options: SearchOptions): RosterSolution {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const rnd = random(options.seed ?? 1);
  const rules = new RosterRules(problem);
  const n = problem.staff.length;
  const h = rules.days;
  const T = rules.templateCount;
  const maxUnder = Math.max(
    1,
    ...problem.cover.map((c) => c.underWeight),
    ...problem.staff.flatMap((p) => [...p.preferOn, ...p.preferOff].map((x) => x.weight)),
  );
  // The weight of a broken hard rule grows as the search cools: early on the search may cross
  // rosters that break one to reach better ones; at the end breaking one costs more than any gain.
  const hardFrom = maxUnder * (options.tuning?.hard ?? 2);
  const hardTo = maxUnder * 1000;
  let hardWeight = hardFrom;
  const startTemperature = maxUnder * (options.tuning?.start ?? 0.3);
  const endTemperature = Math.max(0.05, maxUnder * (options.tuning?.end ?? 0.002));

  const need = new Int32Array(h * T);
  const under = new Float64Array(h * T);
  const over = new Float64Array(h * T);
  for (const c of problem.cover) {
    const k = c.day * T + c.template;
    need[k] = c.count;
    under[k] = c.underWeight;
    over[k] = c.overWeight;
  }
  const cellCost = (k: number, count: number) => (count < need[k] ? (need[k] - count) * under[k] : (count - need[k]) * over[k]);

  const roster: Roster = rules.emptyRoster();
  const counts = new Int32Array(h * T);
  const personSoft = new Float64Array(n);
  const personHard = new Float64Array(n);
  construct(rules, roster, need);
  for (const row of roster) row.forEach((v, d) => v >= 0 && counts[d * T + v]++);
  let coverCost = 0;
  for (let k = 0; k < h * T; k++) coverCost += cellCost(k, counts[k]);
  let currentSoft = coverCost;
  let currentHard = 0;
  for (let i = 0; i < n; i++) {
    const s = rules.scan(i, roster[i]);
    personSoft[i] = s.soft;
    personHard[i] = s.hard;
    currentSoft += s.soft;
    currentHard += s.hard;
  }
  // The best roster: the cheapest that keeps every hard rule, or, until one does, the one breaking least.
  let bestSoft = currentSoft;
  let bestHard = currentHard;
  const bestRoster = roster.map((row) => row.slice());

  /** The values person i may take on day d (OFF included), or null on a kept day. */
  const movable = (i: number, d: number) => !rules.fixed[i][d];
  const mayWork = (i: number, d: number, v: number) => v === OFF || (v >= 0 && rules.allowed[i][d * T + v] === 1);
  /** Person i takes value `to` on day d: the counts follow; answers the change in cover cost. */
  const assign = (i: number, d: number, to: number): number => {
    const was = roster[i][d];
    let delta = 0;
    if (was === to) return 0;
    if (was >= 0) {
      const k = d * T + was;
      delta += cellCost(k, counts[k] - 1) - cellCost(k, counts[k]);
      counts[k]--;
    }
    if (to >= 0) {
      const k = d * T + to;
      delta += cellCost(k, counts[k] + 1) - cellCost(k, counts[k]);
      counts[k]++;
    }
    roster[i][d] = to;
    return delta;
  };

  const weekendStarts: number[] = [];
  for (let d = 0; d < h; d++) if (rules.weekendOf[d] >= 0 && (d === 0 || rules.weekendOf[d - 1] !== rules.weekendOf[d])) weekendStarts.push(d);
  let temperature = startTemperature;
  let moves = 0;
  let stopped = false;
  let lastProgress = started;
  const accept = (delta: number) => delta <= 0 || rnd() < Math.exp(-delta / temperature);

  /** Re-scores the people of a move already applied; keeps it if accepted, undoes it otherwise. */
  const settle = (people: number[], coverDelta: number, undo: () => void): void => {
    let softDelta = coverDelta;
    let hardDelta = 0;
    const fresh = people.map((i) => {
      const s = rules.scan(i, roster[i]);
      softDelta += s.soft - personSoft[i];
      hardDelta += s.hard - personHard[i];
      return s;
    });
    if (accept(softDelta + hardWeight * hardDelta)) {
      people.forEach((i, k) => {
        personSoft[i] = fresh[k].soft;
        personHard[i] = fresh[k].hard;
      });
      currentSoft += softDelta;
      currentHard += hardDelta;
      if (
        currentHard < 1e-9
          ? bestHard > 1e-9 || currentSoft < bestSoft - 1e-9
          : bestHard > 1e-9 && (currentHard < bestHard - 1e-9 || (currentHard < bestHard + 1e-9 && currentSoft < bestSoft))
      ) {
        bestSoft = currentSoft;
        bestHard = currentHard;
        for (let i = 0; i < n; i++) bestRoster[i].set(roster[i]);
      }
    } else undo();
  };

  const change = () => {
    const i = Math.floor(rnd() * n);
    const d = Math.floor(rnd() * h);
    if (!movable(i, d)) return;
    const old = roster[i][d];
    const v = Math.floor(rnd() * (T + 1)) - 1;
    if (v === old || !mayWork(i, d, v)) return;
    settle([i], assign(i, d, v), () => assign(i, d, old));
  };

  /** One person works one template (or is off) on each of 2–5 days in a row: whole blocks appear and go. */
  const setBlock = () => {
    const i = Math.floor(rnd() * n);
    const length = Math.min(h, 2 + Math.floor(rnd() * 4));
    const from = Math.floor(rnd() * (h - length + 1));
    const v = rnd() < 0.4 ? OFF : Math.floor(rnd() * T);
    const old = roster[i].slice(from, from + length);
    let coverDelta = 0;
    let differs = false;
    for (let d = from; d < from + length; d++) {
      if (roster[i][d] === v) continue;
      if (!movable(i, d) || !mayWork(i, d, v)) return;
      differs = true;
    }
    if (!differs) return;
    for (let d = from; d < from + length; d++) coverDelta += assign(i, d, v);
    settle([i], coverDelta, () => {
      for (let d = from; d < from + length; d++) assign(i, d, old[d - from]);
    });
  };

  /** One person's shift moves to another day of theirs (the two days exchange what they hold). */
  const shiftDays = () => {
    const i = Math.floor(rnd() * n);
    const d = Math.floor(rnd() * h);
    const e = Math.floor(rnd() * h);
    const a = roster[i][d];
    const b = roster[i][e];
    if (a === b || !movable(i, d) || !movable(i, e) || !mayWork(i, e, a) || !mayWork(i, d, b)) return;
    const coverDelta = assign(i, d, b) + assign(i, e, a);
    settle([i], coverDelta, () => {
      assign(i, d, a);
      assign(i, e, b);
    });
  };

  /** Two people swap a block of `wanted` days (from a random day, or from `start`). */
  const swap = (wanted: number, start?: number) => {
    const length = Math.min(h, wanted);
    const i = Math.floor(rnd() * n);
    const j = Math.floor(rnd() * n);
    if (i === j) return;
    const from = start ?? Math.floor(rnd() * (h - length + 1));
    if (from < 0 || from + length > h) return;
    let differs = false;
    for (let d = from; d < from + length; d++) {
      const a = roster[i][d];
      const b = roster[j][d];
      if (a === b) continue;
      if (!movable(i, d) || !movable(j, d) || !mayWork(i, d, b) || !mayWork(j, d, a)) return;
      differs = true;
    }
    if (!differs) return;
    const exchange = () => {
      for (let d = from; d < from + length; d++) {
        const a = roster[i][d];
        roster[i][d] = roster[j][d];
        roster[j][d] = a;
      }
    };
    exchange();
    settle([i, j], 0, exchange);
  };

  /** One person's whole row rebuilt against everyone else's (see rebuildRow): a repair of the hard rules and a large improving move. */
  const prices = problem.staff.map(() => ({ template: new Float64Array(T), minute: 0 }));
  const rebuild = (i: number) => {
    const prefs = rules.preferenceCost[i];
    const { shiftCost, premiumCost } = problem.staff[i];
    const row = roster[i];
    const rebuilt = rebuildRow(
      rules,
      i,
      row,
      (d, v) => {
        if (v < 0) return prefs[d * (T + 1) + T];
        const k = d * T + v;
        const others = counts[k] - (row[d] === v ? 1 : 0);
        return prefs[d * (T + 1) + v] + (shiftCost?.[v] ?? 0) + (premiumCost?.[k] ?? 0) + cellCost(k, others + 1) - cellCost(k, others);
      },
      prices[i],
    );
    if (!rebuilt) return;
    const old = row.slice();
    let coverDelta = 0;
    for (let d = 0; d < h; d++) coverDelta += assign(i, d, rebuilt[d]);
    settle([i], coverDelta, () => {
      for (let d = 0; d < h; d++) assign(i, d, old[d]);
    });
  };

  // Rebuilds cost far more than the other moves: they get about a fifth of the time, people who break a hard rule first.
  let rebuildMs = 0;
  // The construction sees a day and its neighbours only: over a long range it leaves runs, days off,
  // weekends and totals broken for many people. Before the annealing, each person who breaks a rule
  // has their row rebuilt, in turn, up to three rounds or 30% of the time.
  const repairMs = (options.tuning?.repair ?? 0.3) * options.timeLimitMs;
  for (let round = 0; round < 3 && currentHard > 1e-9; round++) {
    for (let i = 0; i < n && now() - started < repairMs; i++) if (personHard[i] > 1e-9) rebuild(i);
  }
  for (;;) {
    if (n > 0 && rebuildMs < 0.2 * (now() - started)) {
      const before = now();
      const breaking: number[] = [];
      for (let i = 0; i < n; i++) if (personHard[i] > 1e-9) breaking.push(i);
      rebuild(breaking.length && rnd() < 0.8 ? breaking[Math.floor(rnd() * breaking.length)] : Math.floor(rnd() * n));
      rebuildMs += now() - before;
    }
    for (let k = 0; k < 512; k++) {
      const r = rnd();
      if (r < 0.35) change();
      else if (r < 0.45) shiftDays();
      else if (r < 0.55) setBlock();
      else if (r < 0.75) swap(1);
      else if (r < 0.9 || !weekendStarts.length) swap(2 + Math.floor(rnd() * 6));
      else {
        // A weekend changes hands whole, with the Friday or the Monday beside it or not: weekend limits and days off move with it.
        const saturday = weekendStarts[Math.floor(rnd() * weekendStarts.length)];
        const variant = Math.floor(rnd() * 3);
        swap(variant === 0 ? 2 : 3, variant === 1 ? saturday - 1 : saturday);
      }
    }
    moves += 512;
    const t = now();
    const elapsed = t - started;
    if (elapsed >= options.timeLimitMs) break;
    if (options.shouldStop?.()) {
      stopped = true;
      break;
    }
    const progress = elapsed / options.timeLimitMs;
    temperature = startTemperature * Math.pow(endTemperature / startTemperature, progress);
    hardWeight = hardFrom * Math.pow(hardTo / hardFrom, Math.min(1, progress * 1.5));
    if (options.onProgress && t - lastProgress >= 250) {
      lastProgress = t;
      options.onProgress({ elapsedMs: Math.round(elapsed), bestObjective: bestSoft, bestHard, moves });
    }
  }

  const violations = rules.violations(bestRoster);
  const parts = rules.objective(bestRoster);
  return {
    roster: bestRoster.map((row) => Array.from(row)),
    objective: total(parts),
    parts,
    violations,
    moves,
    elapsedMs: Math.round(now() - started),
    stopped,
  };
}

/**
 * A first roster: day by day, each cover need is filled with the people who may work it, can take
 * one more of it, and have worked least so far, checking only the rules a day and its neighbours
 * decide (one shift a day, what may follow what, the shift and minute maximums).
 */
function construct(rules: RosterRules, roster: Roster, need: Int32Array): void {
  const { days: h, templateCount: T, problem } = rules;
  const worked = new Float64Array(roster.length);
  const perTemplate = roster.map(() => new Int32Array(T));
  const order = roster.map((_, i) => i);
  for (let d = 0; d < h; d++) {
    for (let t = 0; t < T; t++) {
      let missing = need[d * T + t];
      for (const row of roster) if (row[d] === t) missing--;
      if (missing <= 0) continue;
      order.sort((a, b) => worked[a] - worked[b]);
      for (const i of order) {
        if (missing <= 0) break;
        const row = roster[i];
        const limits = problem.staff[i].limits;
        if (row[d] !== OFF || rules.fixed[i][d] || !rules.allowed[i][d * T + t]) continue;
        if (d > 0 && row[d - 1] >= 0 && rules.forbiddenNext[row[d - 1] * T + t]) continue;
        if (d + 1 < h && row[d + 1] >= 0 && rules.forbiddenNext[t * T + row[d + 1]]) continue;
        const max = limits.maxShifts?.[t];
        if (max !== null && max !== undefined && perTemplate[i][t] >= max) continue;
        if (limits.maxMinutes !== undefined && worked[i] + rules.minutes[t] > limits.maxMinutes) continue;
        let run = 1;
        for (let e = d - 1; e >= 0 && row[e] !== OFF; e--) run++;
        if (limits.maxConsecutiveShifts !== undefined && run > limits.maxConsecutiveShifts) continue;
        row[d] = t;
        perTemplate[i][t]++;
        worked[i] += rules.minutes[t];
        missing--;
      }
    }
  }
}
