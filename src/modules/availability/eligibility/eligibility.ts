import { EntityManager } from "typeorm";
import { AppError } from "../../../errors/app-error";
import { LocationRules, rulesOfLocations } from "../../compliance";
import { formatLocal } from "../../../common/time";
import { matchesShift } from "../rules/availability-rule.rules";
import { availabilityWindows, availabilityWindowsOf } from "../rules/availability-windows";
import { selectTimeZone } from "../rules/availability-rule.store";
import { evaluateEligibility, ShiftInQuestion, StaffEligibility } from "./eligibility.rules";
import { selectCandidates, selectEntriesAround } from "./eligibility.store";
import { readTogether } from "../../../database/read-together";

const DAY_MS = 86_400_000;
/** Entries this far around the shift count: rest between shifts, and every workweek it touches. */
const CONTEXT_MS = 8 * DAY_MS;

/** A shift at a location, asked about for some staff members (every active one when `staffIds` is null). */
export interface EligibilityQuery extends Partial<ShiftInQuestion> {
  organizationId: string;
  locationId: string;
  timeZone: string;
  roleId: string;
  start: Date;
  end: Date;
  staffIds: readonly string[] | null;
  now: Date;
}

/**
 * Every candidate's eligibility for one shift, read in five statements whatever their number (the
 * candidates, their availability rules and time off, their entries around the shift, the
 * location's rules), then evaluated in memory. Runs in the caller's transaction when given one.
 */
export async function evaluateShiftEligibility(manager: EntityManager, query: EligibilityQuery): Promise<StaffEligibility[]> {
  return (await evaluateShiftsEligibility(manager, [query]))[0];
}

/**
 * The eligibility of several shifts of one organization (a page of shift requests: each its own
 * location, role, people and time), in the queries' order: the same five statements for all of
 * them, over the union of their people and ranges, then each evaluated in memory. `rulesAt`, when
 * the caller has read the locations' rules already, spares the read of them.
 */
export async function evaluateShiftsEligibility(
  manager: EntityManager,
  queries: readonly EligibilityQuery[],
  rulesAt?: ReadonlyMap<string, LocationRules>,
): Promise<StaffEligibility[][]> {
  if (queries.length === 0) return [];
  const org = queries[0].organizationId;
  const candidates = await selectCandidates(manager, org, queries);
  const staffOf = candidates.map((found) => found.map((c) => c.staffId));
  // Asked about everyone, the reads take the whole organization rather than a list of all its people.
  const everyone = queries.some((q) => q.staffIds === null);
  const around = (q: EligibilityQuery) => ({ from: new Date(q.start.getTime() - CONTEXT_MS), until: new Date(q.end.getTime() + CONTEXT_MS) });
  const [windows, entries, rules] = await readTogether(
    manager,
    () =>
      availabilityWindowsOf(
        manager,
        queries.map((q, i) => ({ organizationId: org, staffIds: q.staffIds === null ? null : staffOf[i], from: q.start, until: q.end, timeZone: q.timeZone })),
      ),
    () =>
      selectEntriesAround(
        manager,
        org,
        everyone ? null : [...new Set(staffOf.flat())],
        new Date(Math.min(...queries.map((q) => around(q).from.getTime()))),
        new Date(Math.max(...queries.map((q) => around(q).until.getTime()))),
      ),
    async () =>
      rulesAt ??
      rulesOfLocations(
        manager,
        org,
        queries.map((q) => q.locationId),
      ),
  );
  return queries.map((q, i) => {
    const { from, until } = around(q);
    const shift: ShiftInQuestion = {
      locationId: q.locationId,
      start: q.start,
      end: q.end,
      templateId: q.templateId ?? null,
      unpaidBreakMinutes: q.unpaidBreakMinutes ?? 0,
      ignoredEntryIds: q.ignoredEntryIds ?? new Set(),
      owesPredictabilityPay: q.owesPredictabilityPay ?? true,
    };
    const whose = new Set(staffOf[i]);
    const near = entries.filter((e) => whose.has(e.staffId) && e.start >= from && e.start < until);
    const { rules: inForce, weekStart } = rules.get(q.locationId)!;
    return evaluateEligibility(shift, candidates[i], windows[i], near, { rules: inForce, ctx: { zone: q.timeZone, weekStart, now: q.now } });
  });
}

/** The refusal of an ineligible person: 409 NOT_ELIGIBLE, each reason one detail. */
export function notEligible(result: StaffEligibility): AppError {
  return new AppError(
    "NOT_ELIGIBLE",
    result.reasons[0]?.message ?? "The worker is not eligible for this shift",
    result.reasons.map(({ message, code, sourceId, entryIds, citation }, i) => ({
      field: `reasons.${i}`,
      ...{ message, code },
      ...(sourceId ? { sourceId } : {}),
      ...(entryIds.length ? { entryIds } : {}),
      ...(citation ? { citation } : {}),
    })),
  );
}

/**
 * Refuses (409 NOT_ELIGIBLE, the reasons in `details`) unless the staff member may take the shift;
 * answers their eligibility (warnings and premiums) otherwise. For claims, assignments and new
 * entries, in the caller's transaction.
 */
export async function requireEligible(
  manager: EntityManager,
  query: Omit<EligibilityQuery, "staffIds" | "timeZone"> & { timeZone?: string },
  staffId: string,
): Promise<StaffEligibility> {
  const timeZone = query.timeZone ?? (await selectTimeZone(manager, query.organizationId, query.locationId));
  if (!timeZone) throw new AppError("NOT_FOUND", "Location not found");
  const [result] = await evaluateShiftEligibility(manager, { ...query, timeZone, staffIds: [staffId] });
  if (!result)
    throw new AppError("NOT_FOUND", "Staff member not found", [{ field: "workerId", message: "workerId does not name a staff member of this organization" }]);
  if (!result.eligible) throw notEligible(result);
  return result;
}

/**
 * Refuses (409 NOT_ELIGIBLE) planned shifts that fall on an approved UNAVAILABLE rule of their
 * worker: for entries and drafts written for someone, and for publishing. One read for all the
 * plans. Approved time off is refused by the schedules themselves; compliance errors by the
 * publishing gate.
 */
export async function refuseUnavailable(
  manager: EntityManager,
  organizationId: string,
  timeZone: string,
  plans: { staffId: string; startsAt: Date; endsAt: Date }[],
): Promise<void> {
  if (plans.length === 0) return;
  const from = new Date(Math.min(...plans.map((p) => p.startsAt.getTime())));
  const until = new Date(Math.max(...plans.map((p) => p.endsAt.getTime())));
  const windows = await availabilityWindows(manager, { organizationId, staffIds: [...new Set(plans.map((p) => p.staffId))], from, until, timeZone });
  const blocked = windows.filter((w) => w.source === "RULE" && w.kind === "UNAVAILABLE");
  for (const plan of plans) {
    const hits = blocked.filter((w) => w.staffId === plan.staffId && matchesShift(w, plan.startsAt, plan.endsAt));
    if (!hits.length) continue;
    const reasons = hits.map((w) => ({
      code: "UNAVAILABLE" as const,
      message: `The worker is unavailable from ${formatLocal(w.start, timeZone)} to ${formatLocal(w.end, timeZone)}`,
      sourceId: w.sourceId,
      entryIds: [],
      citation: null,
      hours: null,
      amount: null,
    }));
    throw notEligible({ staffId: plan.staffId, eligible: false, reasons, warnings: [], premiums: [] });
  }
}
