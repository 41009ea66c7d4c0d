import { EntityManager } from "typeorm";
import { round2 } from "../../common/entity-columns";
import { addDays, startOfLocalDay } from "../../common/time";
import { AppError, invalidField } from "../../errors/app-error";
import { weekdayNumber, Weekday } from "../../common/weekday";
import { ComplianceRules } from "./compliance-presets";
import { checkSchedule, predictabilityPay, Violation } from "./compliance-rules";
import { SnapshotQuery } from "../../database/cursor";
import {
  insertAcknowledgement,
  insertPredictabilityPay,
  loadPlannedSchedule,
  loadProfiles,
  RecordedPredictabilityPay,
  selectLocationRules,
  selectRecordedPredictabilityPay,
  wagesOf,
} from "./compliance.store";
import { ComplianceViolation, RecordedChangePay, ViolationSeverity } from "./compliance.types";

/**
 * What the schedules ask of the labor rules while they write: the violations of a range, the
 * gate of publishing, and the predictability pay a change to the published schedule owes. Each
 * runs in the caller's transaction.
 */

interface LocationRef {
  id: string;
  timezone: string;
}

/** A violation as the API shows it: hours to two decimals, the amount to the cent, each rounded once. */
export function presentViolation(v: Violation): ComplianceViolation {
  return {
    ruleId: v.ruleId,
    severity: v.severity as ViolationSeverity,
    staffId: v.staffId,
    entryIds: v.entryIds,
    message: v.message,
    citation: v.citation,
    premium: v.premium && { hours: round2(v.premium.minutes / 60), amount: v.premium.cents / 100 },
  };
}

/** A violation with its fields as the schema names them (a person is `workerId`), for error details and the stored acknowledgement. */
function violationFields(v: ComplianceViolation) {
  return { ruleId: v.ruleId, severity: v.severity, workerId: v.staffId, entryIds: v.entryIds, message: v.message, citation: v.citation, premium: v.premium };
}

/** A location's rules in force and its organization's first day of the workweek (ISO number). */
export interface LocationRules {
  rules: ComplianceRules;
  weekStart: number;
}

/** The location's rules in force and the organization's first day of the workweek: load once per operation, pass on. */
export async function rulesOf(manager: EntityManager, organizationId: string, locationId: string): Promise<LocationRules> {
  return (await rulesOfLocations(manager, organizationId, [locationId])).get(locationId)!;
}

/** Several locations' rules in force, by location id, in one read: for work that spans locations (a page of shift requests). */
export async function rulesOfLocations(manager: EntityManager, organizationId: string, locationIds: readonly string[]): Promise<Map<string, LocationRules>> {
  const ids = [...new Set(locationIds)];
  if (ids.length === 0) return new Map();
  const stored = await loadProfiles(manager, organizationId, ids);
  return new Map(stored.map((p, i) => [ids[i], { rules: new ComplianceRules(p.preset, p.overrides), weekStart: weekdayNumber(p.weekStart as Weekday) }]));
}

/** The instants bounding a location's calendar days start..end (inclusive). */
function rangeBounds(start: string, end: string, zone: string): { from: Date; to: Date } {
  return { from: startOfLocalDay(start, zone), to: startOfLocalDay(addDays(end, 1), zone) };
}

/**
 * The violations of the location's schedule for the days start..end as it will stand once its
 * drafts there are published, with each worker's entries of a week before and after (rest,
 * workweeks) at any location.
 */
export async function scheduleViolations(
  manager: EntityManager,
  organizationId: string,
  location: LocationRef,
  start: string,
  end: string,
  now: Date,
  inForce?: LocationRules,
): Promise<Violation[]> {
  const zone = location.timezone;
  const { rules, weekStart } = inForce ?? (await rulesOf(manager, organizationId, location.id));
  const planned = await loadPlannedSchedule(
    manager,
    organizationId,
    location.id,
    rangeBounds(start, end, zone),
    rangeBounds(addDays(start, -7), addDays(end, 7), zone),
  );
  return checkSchedule(planned.shifts, planned.changes, planned.timeOff, rules, { zone, weekStart, now });
}

/**
 * Publishing's gate: errors refuse with 409 COMPLIANCE_VIOLATION (each error one detail, its
 * fields beside field and message) unless acknowledged with a reason, which is stored with the
 * errors (and so in the audit trail). Warnings never block. Answers every violation.
 */
export async function gatePublishing(
  manager: EntityManager,
  organizationId: string,
  location: LocationRef,
  range: { start: string; end: string },
  acknowledgement: { acknowledge?: boolean | null; reason?: string | null },
  now: Date,
  inForce?: LocationRules,
): Promise<ComplianceViolation[]> {
  if (acknowledgement.acknowledge && !acknowledgement.reason?.trim()) throw invalidField("reason", "Acknowledging violations needs a reason");
  const violations = (await scheduleViolations(manager, organizationId, location, range.start, range.end, now, inForce)).map(presentViolation);
  const errors = violations.filter((v) => v.severity === ViolationSeverity.error);
  if (errors.length && !acknowledgement.acknowledge) {
    throw new AppError(
      "COMPLIANCE_VIOLATION",
      `The schedule breaks ${errors.length} labor rule${errors.length === 1 ? "" : "s"}; publish with acknowledge and a reason to go ahead`,
      errors.map((v, i) => ({ field: `violations.${i}`, ...violationFields(v) })),
    );
  }
  if (errors.length) await insertAcknowledgement(manager, organizationId, location.id, range, acknowledgement.reason!.trim(), errors.map(violationFields));
  return violations;
}

/** A change of one published entry: added (no `before`), changed, or removed (no `after`). */
export interface EntryChange {
  entryId: string;
  staffId: string;
  roleId: string;
  before: { startsAt: Date; endsAt: Date } | null;
  after: { startsAt: Date; endsAt: Date } | null;
}

/**
 * Records the predictability pay each change owes under the location's rules (nothing outside the
 * notice window), and answers it per entry, as the API shows it, for the change's answer.
 */
export async function recordPredictabilityPay(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  changes: EntryChange[],
  now: Date,
  inForce?: LocationRules,
): Promise<Map<string, RecordedChangePay[]>> {
  const recorded = new Map<string, RecordedChangePay[]>();
  const moved = changes.filter(
    (c) => !c.before || !c.after || c.before.startsAt.getTime() !== c.after.startsAt.getTime() || c.before.endsAt.getTime() !== c.after.endsAt.getTime(),
  );
  if (!moved.length) return recorded;
  const { rules } = inForce ?? (await rulesOf(manager, organizationId, locationId));
  if (rules.figures.noticeDays === null) return recorded;
  const wages = await wagesOf(manager, organizationId, moved);
  const rows = moved.flatMap((c, i) => {
    const pay = predictabilityPay({ id: c.entryId, staffId: c.staffId, before: c.before, after: c.after, hourlyWage: wages[i] }, rules, now);
    if (!pay) return [];
    const shiftStart = c.before?.startsAt ?? c.after!.startsAt;
    return [
      {
        entryId: c.entryId,
        staffId: c.staffId,
        shiftStart,
        change: pay.kind,
        minutes: pay.minutes,
        cents: pay.cents,
        citation: rules.citation("NOTICE_WINDOW"),
      },
    ];
  });
  await insertPredictabilityPay(manager, organizationId, locationId, now, rows);
  for (const r of rows) {
    const shown = { ruleId: "NOTICE_WINDOW", change: r.change, hours: round2(r.minutes / 60), amount: r.cents / 100, citation: r.citation };
    recorded.set(r.entryId, [...(recorded.get(r.entryId) ?? []), shown]);
  }
  return recorded;
}

export type { RecordedPredictabilityPay } from "./compliance.store";

/** Every location's rules in force that has a profile (the others follow NONE), read in the caller's snapshot (payroll's). */
export function loadLocationRules(query: SnapshotQuery, organizationId: string): Promise<Map<string, ComplianceRules>> {
  return selectLocationRules(query, organizationId);
}

/** The predictability pay recorded for scheduled shifts starting on the local days start..end, in their order, read in the caller's snapshot. */
export function recordedPredictabilityPay(
  query: SnapshotQuery,
  filter: { organizationId: string; startDate: string; endDate: string; locationId?: string; staffId?: string },
): Promise<RecordedPredictabilityPay[]> {
  return selectRecordedPredictabilityPay(query, filter);
}
