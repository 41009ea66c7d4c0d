import { round2 } from "../../../common/entity-columns";
import { localTime } from "../../../common/local-time";
import {
  CheckContext,
  ComplianceRules,
  dailyHours,
  PlannedShift,
  predictabilityPay,
  restBetweenShifts,
  shiftLength,
  Violation,
  weeklyHours,
} from "../../compliance";
import { AvailabilityWindow, matchesShift } from "../rules/availability-rule.rules";
import { CandidateRow, EntrySpan } from "./eligibility.store";

/** Why a person cannot take a shift (a reason), or what taking it would mean (a warning). */
export type EligibilityCode = "INACTIVE" | "ROLE" | "LOCATION" | "UNAVAILABLE" | "TIME_OFF" | "OVERLAP" | "PREFER_OFF" | "PREFER_ON" | Violation["ruleId"];

export interface EligibilityFinding {
  code: EligibilityCode;
  message: string;
  /** The availability rule, time-off request or entry behind it. */
  sourceId: string | null;
  /** The entries a compliance rule names (the shift asked about is `SHIFT_ID`). */
  entryIds: string[];
  citation: string | null;
  /** Premium hours and amount, rounded once for the answer. */
  hours: number | null;
  amount: number | null;
}

export interface EligibilityPremium {
  ruleId: string;
  hours: number;
  amount: number;
  citation: string;
}

export interface StaffEligibility {
  staffId: string;
  eligible: boolean;
  reasons: EligibilityFinding[];
  warnings: EligibilityFinding[];
  premiums: EligibilityPremium[];
}

/** The shift asked about. */
export interface ShiftInQuestion {
  locationId: string;
  start: Date;
  end: Date;
  templateId: string | null;
  unpaidBreakMinutes: number;
  /** Entries that do not count against anyone (the entry being handed over, in a swap both). */
  ignoredEntryIds: ReadonlySet<string>;
  /** Whether assigning it is a change to the published schedule that owes predictability pay (false for a swap a worker asked for, where the law exempts it). */
  owesPredictabilityPay: boolean;
}

/** The id the shift asked about carries in compliance findings. */
export const SHIFT_ID = "00000000-0000-0000-0000-000000000000";

const finding = (code: EligibilityCode, message: string, sourceId: string | null = null): EligibilityFinding => ({
  code,
  message,
  sourceId,
  entryIds: [],
  citation: null,
  hours: null,
  amount: null,
});

/** The reasons that depend on nobody's schedule: one of each, shared by everyone they concern (most of an organization, for one shift). */
const INACTIVE = Object.freeze(finding("INACTIVE", "The worker is no longer active"));
const NO_ROLE = Object.freeze(finding("ROLE", "The worker does not hold the shift's role"));
const NOT_AT_LOCATION = Object.freeze(finding("LOCATION", "The worker does not work at the shift's location"));

function fromViolation(v: Violation): EligibilityFinding {
  return {
    code: v.ruleId,
    message: v.message,
    sourceId: null,
    entryIds: v.entryIds,
    citation: v.citation,
    hours: v.premium && round2(v.premium.minutes / 60),
    amount: v.premium && v.premium.cents / 100,
  };
}

/**
 * Each candidate's eligibility for the shift, from what was read for all of them at once: their
 * flags, availability windows (rules and approved time off), published entries around the shift,
 * and the location's compliance rules. Compliance errors are reasons, warnings are warnings, and
 * what the assignment would owe is in `premiums`. Pure: no database, no clock.
 */
export function evaluateEligibility(
  shift: ShiftInQuestion,
  candidates: CandidateRow[],
  windows: AvailabilityWindow[],
  entries: EntrySpan[],
  compliance: { rules: ComplianceRules; ctx: CheckContext },
): StaffEligibility[] {
  const zone = compliance.ctx.zone;
  const windowsOf = group(windows);
  const entriesOf = group(entries.filter((e) => !shift.ignoredEntryIds.has(e.id)));
  const alone = new Map<string, Judged>();
  return candidates.map((c) => {
    const reasons: EligibilityFinding[] = [];
    const warnings: EligibilityFinding[] = [];
    if (!c.active) reasons.push(INACTIVE);
    if (!c.hasRole) reasons.push(NO_ROLE);
    if (!c.atLocation) reasons.push(NOT_AT_LOCATION);
    for (const w of windowsOf.get(c.staffId) ?? []) {
      if (!matchesShift(w, shift.start, shift.end, shift.templateId)) continue;
      const span = `${localTime(w.start, zone)} to ${localTime(w.end, zone)}`;
      if (w.source === "TIME_OFF") reasons.push(finding("TIME_OFF", `The worker has approved time off from ${span}`, w.sourceId));
      else if (w.kind === "UNAVAILABLE") reasons.push(finding("UNAVAILABLE", `The worker is unavailable from ${span}`, w.sourceId));
      else if (w.kind === "PREFER_OFF") warnings.push(finding("PREFER_OFF", `The worker would rather not work from ${span} (weight ${w.weight})`, w.sourceId));
    }
    const own = entriesOf.get(c.staffId) ?? [];
    for (const e of own) {
      if (e.start < shift.end && e.end > shift.start)
        reasons.push(finding("OVERLAP", `The worker's entry from ${localTime(e.start, zone)} to ${localTime(e.end, zone)} overlaps the shift`, e.id));
    }
    // Whoever has no entry around the shift is judged on the shift alone, the same for everyone at one wage.
    let judged = own.length ? undefined : alone.get(c.wage);
    if (!judged) {
      judged = judge(shift, c.staffId, c.wage, own, compliance);
      if (!own.length) alone.set(c.wage, judged);
    }
    reasons.push(...judged.reasons);
    warnings.push(...judged.warnings);
    return { staffId: c.staffId, eligible: reasons.length === 0, reasons, warnings, premiums: [...judged.premiums] };
  });
}

interface Judged {
  reasons: EligibilityFinding[];
  warnings: EligibilityFinding[];
  premiums: EligibilityPremium[];
}

/** What the location's compliance rules say of the shift added to the person's entries around it, and what it would owe. */
function judge(shift: ShiftInQuestion, staffId: string, wage: string, own: EntrySpan[], compliance: { rules: ComplianceRules; ctx: CheckContext }): Judged {
  const judged: Judged = { reasons: [], warnings: [], premiums: [] };
  const planned: PlannedShift[] = [
    ...own.map((e) => ({
      id: e.id,
      staffId,
      startsAt: e.start,
      endsAt: e.end,
      breaks: unpaid(e.unpaidBreakMinutes),
      hourlyWage: wage,
      checked: false,
    })),
    {
      id: SHIFT_ID,
      staffId,
      startsAt: shift.start,
      endsAt: shift.end,
      breaks: unpaid(shift.unpaidBreakMinutes),
      hourlyWage: wage,
      checked: true,
    },
  ];
  const { rules, ctx } = compliance;
  const violations = [
    ...shiftLength(planned, rules, ctx),
    ...dailyHours(planned, rules, ctx),
    ...weeklyHours(planned, rules, ctx),
    ...restBetweenShifts(planned, rules, ctx),
  ].filter((v) => v.entryIds.includes(SHIFT_ID));
  for (const v of violations) {
    (v.severity === "error" ? judged.reasons : judged.warnings).push(fromViolation(v));
    if (v.premium && v.premium.cents > 0)
      judged.premiums.push({ ruleId: v.ruleId, hours: round2(v.premium.minutes / 60), amount: v.premium.cents / 100, citation: v.citation });
  }
  if (shift.owesPredictabilityPay) {
    const pay = predictabilityPay(
      { id: SHIFT_ID, staffId, before: null, after: { startsAt: shift.start, endsAt: shift.end }, hourlyWage: wage },
      rules,
      ctx.now,
    );
    if (pay) {
      const premium = { ruleId: "NOTICE_WINDOW", hours: round2(pay.minutes / 60), amount: pay.cents / 100, citation: rules.citation("NOTICE_WINDOW") };
      judged.premiums.push(premium);
      judged.warnings.push({
        ...finding("NOTICE_WINDOW", `Added inside the ${rules.figures.noticeDays}-day notice window: predictability pay is owed`),
        citation: premium.citation,
        hours: premium.hours,
        amount: premium.amount,
      });
    }
  }
  return judged;
}

function unpaid(minutes: number) {
  return minutes > 0 ? [{ paid: false, durationMinutes: minutes, startsAt: null }] : [];
}

function group<T extends { staffId: string }>(items: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const members = groups.get(item.staffId);
    if (members) members.push(item);
    else groups.set(item.staffId, [item]);
  }
  return groups;
}
