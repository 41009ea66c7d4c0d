import { DateTime } from "luxon";
import { addDays, localDate } from "../../common/time";
import { ComplianceRules, missedMealBreaks, predictabilityPay, restPremium, restShortfall } from "../../modules/compliance";
import type { PlannedShiftRow } from "../../modules/schedules";
import { breakStart } from "../../modules/shift-templates";
import { exactCents } from "../../common/money";
import { GenerationRequest, StoredLimits } from "./generation.entity";
import { BUSY, Preference, RosterLimits, RosterPerson, RosterProblem } from "./solver/roster-problem";

const MINUTE_MS = 60_000;

/** A template's break as a draft made from it carries it: its type, and its start as a time of day when fixed. */
export interface TemplateBreakShape {
  typeId: string;
  name: string;
  paid: boolean;
  durationMinutes: number;
  startTime: string | null;
}

/** A template as the problem needs it. */
export interface TemplateShape {
  id: string;
  roleId: string;
  startTime: string;
  endTime: string;
  durationMinutes: number;
  cannotBeFollowedBy: string[];
  breaks: TemplateBreakShape[];
}

/** A staff member who may be planned at the location, with their roles and the wage of each. */
export interface PlannablePerson {
  staffId: string;
  active: boolean;
  atLocation: boolean;
  /** Role id → hourly wage (exact numeric text, or null without one). */
  wages: Map<string, string | null>;
}

/** When a person cannot or would rather (not) work: a rule's window or approved time off. */
export interface AvailabilityWindowShape {
  staffId: string;
  kind: "UNAVAILABLE" | "PREFER_ON" | "PREFER_OFF";
  source: "RULE" | "TIME_OFF";
  start: Date;
  end: Date;
  weight: number;
  templateId: string | null;
}

/** The location's labor rules that decide where a shift may go. */
export interface PlanningRules {
  minRestHours: number | null;
  /** Whether short rest owes a premium (then it is held as a hard rule unless premiums are allowed). */
  restPriced: boolean;
  maxShiftHours: number | null;
  maxDailyHours: number | null;
  maxWeeklyHours: number | null;
  noticeDays: number | null;
  /** ISO weekday the organization's workweek starts on. */
  weekStart: number;
  /** The profile itself: its meal-break rule, and the premiums it prices (predictability pay, short rest). */
  profile: ComplianceRules;
}

/** Everything a generation reads, as plain data. */
export interface GenerationData {
  request: GenerationRequest;
  locationId: string;
  zone: string;
  now: Date;
  templates: TemplateShape[];
  requirements: { date: string; templateId: string; count: number; underWeight: number; overWeight: number }[];
  people: PlannablePerson[];
  planned: PlannedShiftRow[];
  windows: AvailabilityWindowShape[];
  rules: PlanningRules;
  /** Whether a window bears on a shift (availability's rule: overlap, or inside it for PREFER_ON). */
  bears: (window: AvailabilityWindowShape, start: Date, end: Date, templateId: string | null) => boolean;
}

/** The problem with what the explanation needs: why each person may not work each day's template. */
export interface BuiltProblem {
  problem: RosterProblem;
  dates: string[];
  /** Per day, per template: when its shift starts and ends. */
  instances: { startsAt: Date; endsAt: Date }[][];
  /** Per person: day × templates + template → the first reason they may not work it. */
  reasons: Map<number, string>[];
}

const overlaps = (a: { startsAt: Date; endsAt: Date }, b: { startsAt: Date; endsAt: Date }) => a.startsAt < b.endsAt && b.startsAt < a.endsAt;

/** A template's breaks on a day in the zone, as a draft made from it carries them (a fixed start becomes an instant). */
export function breaksOn<B extends TemplateBreakShape>(
  template: { startTime: string; breaks: B[] },
  date: string,
  zone: string,
): (Omit<B, "startTime"> & { startsAt: Date | null })[] {
  return template.breaks.map(({ startTime, ...b }) => ({ ...b, startsAt: startTime ? breakStart(template.startTime, startTime, date, zone) : null }));
}

/** The instants of a template's shift on a day in the zone (an end at or before the start is the next day). */
function instanceOf(template: TemplateShape, date: string, zone: string): { startsAt: Date; endsAt: Date } {
  const at = (time: string, plusDays: number) =>
    DateTime.fromISO(date, { zone })
      .plus({ days: plusDays })
      .set({ hour: Number(time.slice(0, 2)), minute: Number(time.slice(3, 5)) })
      .toJSDate();
  const overnight = template.endTime <= template.startTime;
  return { startsAt: at(template.startTime, 0), endsAt: at(template.endTime, overnight ? 1 : 0) };
}

function limitsOf(stored: StoredLimits, templateIndex: Map<string, number>, templateCount: number, maxWeeklyHours: number | null): RosterLimits {
  const limits: RosterLimits = {};
  for (const key of ["minMinutes", "maxMinutes", "maxConsecutiveShifts", "minConsecutiveShifts", "minConsecutiveDaysOff", "maxWeekends"] as const) {
    if (stored[key] !== undefined && stored[key] !== null) limits[key] = stored[key];
  }
  if (stored.maxShifts?.length) {
    limits.maxShifts = new Array<number | null>(templateCount).fill(null);
    for (const m of stored.maxShifts) {
      const t = templateIndex.get(m.templateId);
      if (t !== undefined) limits.maxShifts[t] = m.max;
    }
  }
  if (maxWeeklyHours !== null) limits.maxWeeklyMinutes = Math.round(maxWeeklyHours * 60);
  return limits;
}

/**
 * The rostering problem of a generation: who may work which template on which day (and why not),
 * what is kept, the limits, preferences, coverage and costs. Pure: the service loads the data.
 */
export function buildProblem(data: GenerationData): BuiltProblem {
  const { request, zone, templates, rules } = data;
  const days = Math.round(DateTime.fromISO(request.endDate).diff(DateTime.fromISO(request.startDate), "days").days) + 1;
  const dates = Array.from({ length: days }, (_, d) => addDays(request.startDate, d));
  const T = templates.length;
  const templateIndex = new Map(templates.map((t, i) => [t.id, i]));
  const instances = dates.map((date) => templates.map((t) => instanceOf(t, date, zone)));
  const dayOf = new Map(dates.map((date, d) => [date, d]));
  const localDay = (instant: Date) => localDate(instant, zone);
  const restHard = rules.minRestHours !== null && rules.restPriced && !request.allowPremiums;
  const restMs = (rules.minRestHours ?? 0) * 3_600_000;
  const tooShortRest = (first: { endsAt: Date }, second: { startsAt: Date }) => restHard && second.startsAt.getTime() - first.endsAt.getTime() < restMs;
  const noticeEnds = rules.noticeDays !== null && !request.allowPremiums ? data.now.getTime() + rules.noticeDays * 86_400_000 : null;

  // What may follow what on the next day: the template's own list, and what overlaps or leaves too short a rest.
  const cannotFollow = templates.map((t) => new Set(t.cannotBeFollowedBy.map((id) => templateIndex.get(id)).filter((i): i is number => i !== undefined)));
  templates.forEach((t, a) => {
    const first = instanceOf(t, "2001-01-01", "UTC");
    templates.forEach((u, b) => {
      const next = instanceOf(u, "2001-01-02", "UTC");
      if (overlaps(first, next) || tooShortRest(first, next)) cannotFollow[a].add(b);
    });
  });

  const perPerson = new Map<string, PlannedShiftRow[]>();
  for (const row of data.planned) perPerson.set(row.staffId, [...(perPerson.get(row.staffId) ?? []), row]);
  const windowsOf = new Map<string, AvailabilityWindowShape[]>();
  for (const w of data.windows) windowsOf.set(w.staffId, [...(windowsOf.get(w.staffId) ?? []), w]);
  const limitsFor = new Map(request.limits.map((l) => [l.staffId, l]));

  /** Items by the days whose shifts they may touch (a shift ends at most a day after its day starts; rest reaches a day further). */
  const byDay = <X>(items: X[], start: (x: X) => Date, end: (x: X) => Date): X[][] => {
    const found = dates.map(() => [] as X[]);
    const first = dayOf.get(dates[0])!;
    for (const item of items) {
      const from = Math.max(first, daysFrom(localDay(start(item))) - 2);
      const to = Math.min(days - 1, daysFrom(localDay(end(item))) + 1);
      for (let d = from; d <= to; d++) found[d].push(item);
    }
    return found;
  };
  const daysFrom = (date: string) => Math.round(DateTime.fromISO(date).diff(DateTime.fromISO(dates[0]), "days").days);

  // A template's breaks miss the meal-break rule (an error) on a day or not: the same for everyone.
  const figures = rules.profile.figures;
  const missesMeal = dates.map((date, d) =>
    templates.map((t, i) => missedMealBreaks({ ...instances[d][i], breaks: breaksOn(t, date, zone) }, figures).length > 0),
  );
  // With premiums allowed, what a shift owes counts as labor cost (in cents here, weighed as the wages are below).
  const pricing = request.allowPremiums && request.costWeight > 0;
  const restCents = (first: { endsAt: Date }, second: { startsAt: Date; endsAt: Date }, wage: string | number): number => {
    if (rules.minRestHours === null) return 0;
    const short = restShortfall(first.endsAt, second, rules.minRestHours);
    const priced = short && restPremium(short.insideMinutes, wage, figures);
    return priced ? exactCents(priced.exact) : 0;
  };
  const noticeCents = (shift: { startsAt: Date; endsAt: Date }, wage: string | number): number =>
    predictabilityPay({ id: "", staffId: "", before: null, after: shift, hourlyWage: wage }, rules.profile, data.now)?.cents ?? 0;

  const reasons: Map<number, string>[] = [];
  const staff: RosterPerson[] = data.people.map((person) => {
    const why = new Map<number, string>();
    reasons.push(why);
    const block = (d: number, t: number, code: string) => {
      if (!why.has(d * T + t)) why.set(d * T + t, code);
    };
    const planned = perPerson.get(person.staffId) ?? [];
    // A day's shifts run into the next day at most: only what starts by then and ends after the day starts bears on them.
    const windows = byDay(
      windowsOf.get(person.staffId) ?? [],
      (w) => w.start,
      (w) => w.end,
    );
    const near = byDay(
      planned,
      (r) => r.startsAt,
      (r) => r.endsAt,
    );
    const fixed: RosterPerson["fixed"] = [];
    const fixedDays = new Map<number, PlannedShiftRow[]>();
    for (const row of planned) {
      const d = dayOf.get(localDay(row.startsAt));
      if (d !== undefined) fixedDays.set(d, [...(fixedDays.get(d) ?? []), row]);
    }
    /** Kept shifts that stand in the roster as their template (the others are BUSY days or outside the range). */
    const inRoster = new Set<PlannedShiftRow>();
    for (const [d, rows] of fixedDays) {
      const t = rows.length === 1 && rows[0].locationId === data.locationId && rows[0].templateId ? templateIndex.get(rows[0].templateId) : undefined;
      if (t !== undefined) inRoster.add(rows[0]);
      fixed.push(
        t !== undefined
          ? { day: d, template: t }
          : { day: d, template: BUSY, minutes: rows.reduce((sum, r) => sum + (r.endsAt.getTime() - r.startsAt.getTime()) / MINUTE_MS, 0) },
      );
    }
    const wageFor = (roleId: string) => person.wages.get(roleId) ?? 0;
    const premium = new Array<number>(pricing ? days * T : 0).fill(0);
    const preferOn: Preference[] = [];
    const preferOff: Preference[] = [];
    const wishes = new Map<AvailabilityWindowShape, { day: number; templates: number[] }>();
    for (let d = 0; d < days; d++) {
      for (let t = 0; t < T; t++) {
        const template = templates[t];
        const shift = instances[d][t];
        if (!person.wages.has(template.roleId)) block(d, t, "ROLE");
        if (!person.atLocation) block(d, t, "LOCATION");
        if (!person.active) block(d, t, "INACTIVE");
        for (const w of windows[d]) {
          if (!data.bears(w, shift.startsAt, shift.endsAt, template.id)) continue;
          if (w.kind === "UNAVAILABLE") block(d, t, w.source === "TIME_OFF" ? "TIME_OFF" : "UNAVAILABLE");
          else {
            const wish = wishes.get(w) ?? { day: d, templates: [] };
            if (wish.day === d) wish.templates.push(t);
            wishes.set(w, wish);
          }
        }
        for (const row of near[d]) {
          if (overlaps(row, shift)) block(d, t, "OVERLAP");
          else if (tooShortRest(row, shift) || tooShortRest(shift, row)) block(d, t, "REST_BETWEEN_SHIFTS");
          else if (pricing && !inRoster.has(row) && localDay(row.startsAt) !== dates[d]) {
            const [first, second] = row.startsAt < shift.startsAt ? [row, shift] : [shift, row];
            premium[d * T + t] += restCents(first, second, wageFor(second === row && person.wages.has(row.roleId) ? row.roleId : template.roleId));
          }
        }
        if (missesMeal[d][t]) block(d, t, "MEAL_BREAK");
        if (pricing) premium[d * T + t] += noticeCents(shift, wageFor(template.roleId));
        if (rules.maxShiftHours !== null && template.durationMinutes > rules.maxShiftHours * 60) block(d, t, "MAX_SHIFT_LENGTH");
        if (rules.maxDailyHours !== null && template.durationMinutes > rules.maxDailyHours * 60) block(d, t, "MAX_DAILY_HOURS");
        if (noticeEnds !== null && shift.startsAt.getTime() < noticeEnds) block(d, t, "NOTICE_WINDOW");
      }
    }
    // What kept days owe is not the generation's doing; a kept template's short rest next to a new shift is its follow cost.
    for (const f of fixed) premium.fill(0, f.day * T, (f.day + 1) * T);
    for (const [w, wish] of wishes) (w.kind === "PREFER_ON" ? preferOn : preferOff).push({ day: wish.day, templates: wish.templates, weight: w.weight });
    const stored = limitsFor.get(person.staffId) ?? request.defaultLimits;
    const shiftCost =
      request.costWeight > 0 ? templates.map((t) => (request.costWeight * (Number(person.wages.get(t.roleId) ?? 0) * t.durationMinutes)) / 60) : undefined;
    return {
      key: person.staffId,
      blocked: [...why.keys()],
      fixed,
      limits: limitsOf(stored, templateIndex, T, rules.maxWeeklyHours),
      preferOn,
      preferOff,
      ...(shiftCost ? { shiftCost } : {}),
      ...(pricing
        ? premiumsOf(
            premium,
            followingRest(templates, (a, b) => restCents(a, b, wageFor(templates[b.template].roleId))),
            request.costWeight,
          )
        : {}),
    };
  });

  const problem: RosterProblem = {
    days,
    firstWeekday: DateTime.fromISO(request.startDate).weekday,
    workweekStart: rules.weekStart,
    templates: templates.map((t, i) => ({ key: t.id, minutes: t.durationMinutes, cannotBeFollowedBy: [...cannotFollow[i]] })),
    staff,
    cover: data.requirements
      .filter((r) => dayOf.has(r.date) && templateIndex.has(r.templateId))
      .map((r) => ({
        day: dayOf.get(r.date)!,
        template: templateIndex.get(r.templateId)!,
        count: r.count,
        underWeight: r.underWeight,
        overWeight: r.overWeight,
      })),
  };
  return { problem, dates, instances, reasons };
}

/** The rest premium of each template followed by each on the next day (cents), from one reference pair of days. */
function followingRest(
  templates: TemplateShape[],
  cents: (first: { endsAt: Date }, second: { startsAt: Date; endsAt: Date; template: number }) => number,
): number[] {
  return templates.flatMap((t) => {
    const first = instanceOf(t, "2001-01-01", "UTC");
    return templates.map((u, b) => cents(first, { ...instanceOf(u, "2001-01-02", "UTC"), template: b }));
  });
}

/** The premium costs of a person in the objective's units: cents to currency, times the cost weight; none when nothing is owed. */
function premiumsOf(cells: number[], following: number[], costWeight: number): Pick<RosterPerson, "premiumCost" | "followCost"> {
  const weigh = (cents: number[]) => (cents.some((c) => c > 0) ? cents.map((c) => (c * costWeight) / 100) : undefined);
  const premiumCost = weigh(cells);
  const followCost = weigh(following);
  return { ...(premiumCost ? { premiumCost } : {}), ...(followCost ? { followCost } : {}) };
}
