import { EntityManager } from "typeorm";
import { Actor } from "../../auth/actor";
import { round2 } from "../../common/entity-columns";
import { TenantRecords } from "../../common/tenant-records";
import { addDays, parseDateRange, startOfLocalDay } from "../../common/time";
import { ServiceDeps } from "../../app/deps";
import { inTransaction } from "../../database/transaction";
import { AppError, invalidField } from "../../errors/app-error";
import { Location } from "../locations/location.entity";
import { weekdayNumber, Weekday } from "../timesheets/timesheet-settings.entity";
import { ComplianceFigures, ComplianceRules, NUMERIC_FIGURES, NumericFigure } from "./compliance-presets";
import { checkSchedule, Violation } from "./compliance-rules";
import { loadPlannedSchedule, loadProfile, saveProfile } from "./compliance.store";
import { ComplianceCheckInput, ComplianceCheckResult, ComplianceProfile, ComplianceViolation, UpdateComplianceProfileInput, ViolationSeverity } from "./compliance.types";

const FIGURE_NAMES = [...(Object.keys(NUMERIC_FIGURES) as NumericFigure[]), "seventhDayRule"] as const;

/** A violation as the API shows it: hours to two decimals, the amount to the cent, each rounded once. */
export function presentViolation(v: Violation): ComplianceViolation {
  return {
    ruleId: v.ruleId,
    severity: v.severity as ViolationSeverity,
    workerId: v.workerId,
    entryIds: v.entryIds,
    message: v.message,
    citation: v.citation,
    premium: v.premium && { hours: round2(v.premium.minutes / 60), amount: v.premium.cents / 100 },
  };
}

/** 409 COMPLIANCE_VIOLATION: each error violation is one detail, its fields beside field and message. */
export function complianceViolation(errors: ComplianceViolation[]): AppError {
  return new AppError(
    "COMPLIANCE_VIOLATION",
    `The schedule breaks ${errors.length} labor rule${errors.length === 1 ? "" : "s"}; publish with acknowledge and a reason to go ahead`,
    409,
    errors.map((v, i) => ({ field: `violations.${i}`, ...v })),
  );
}

/** The instants bounding a location's calendar days start..end (inclusive). */
function rangeBounds(start: string, end: string, zone: string): { from: Date; to: Date } {
  return { from: startOfLocalDay(start, zone), to: startOfLocalDay(addDays(end, 1), zone) };
}

/**
 * Labor rules per location: the profile (a preset and the figures the location overrides) and the
 * check of a planned schedule against it.
 */
export class ComplianceService {
  readonly locations: TenantRecords<Location>;

  constructor(private readonly deps: ServiceDeps) {
    this.locations = new TenantRecords(deps.db, Location, "Location");
  }

  async profile(actor: Actor, locationId: string): Promise<ComplianceProfile> {
    const location = await this.locations.get(actor, locationId);
    return this.profileOf(this.deps.db.manager, actor.organizationId, location.id);
  }

  /** Sets the preset and the figures given (null: the rule off); `resetFigures` go back to the preset's. */
  updateProfile(actor: Actor, locationId: string, input: UpdateComplianceProfileInput): Promise<ComplianceProfile> {
    if (input.preset === null) throw invalidField("preset", "preset cannot be null; use NONE");
    if (input.seventhDayRule === null) throw invalidField("seventhDayRule", "seventhDayRule cannot be null");
    return inTransaction(this.deps.db, async (manager) => {
      const location = await this.locations.get(actor, locationId, { manager, lock: true });
      const stored = await loadProfile(manager, actor.organizationId, location.id);
      const overrides: Record<string, unknown> = { ...stored.overrides };
      for (const name of input.resetFigures ?? []) delete overrides[name];
      for (const name of FIGURE_NAMES) {
        if (input[name] !== undefined) overrides[name] = input[name];
      }
      await saveProfile(manager, actor.organizationId, location.id, input.preset ?? stored.preset, overrides as Partial<ComplianceFigures>);
      return this.profileOf(manager, actor.organizationId, location.id);
    });
  }

  async check(actor: Actor, locationId: string, input: ComplianceCheckInput): Promise<ComplianceCheckResult> {
    const { start, end } = parseDateRange(input.startDate, input.endDate);
    const location = await this.locations.get(actor, locationId);
    const violations = await this.violationsOf(this.deps.db.manager, actor.organizationId, location, start, end);
    return { startDate: start, endDate: end, violations: violations.map(presentViolation) };
  }

  /** The location's rules in force. */
  async rulesOf(manager: EntityManager, organizationId: string, locationId: string): Promise<{ rules: ComplianceRules; weekStart: number }> {
    const stored = await loadProfile(manager, organizationId, locationId);
    return { rules: new ComplianceRules(stored.preset, stored.overrides), weekStart: weekdayNumber(stored.weekStart as Weekday) };
  }

  /**
   * The violations of the location's schedule for the days start..end as it will stand once its
   * drafts there are published, with each worker's entries of a week before and after (rest,
   * workweeks) at any location.
   */
  async violationsOf(manager: EntityManager, organizationId: string, location: Location, start: string, end: string): Promise<Violation[]> {
    const zone = location.timezone;
    const { rules, weekStart } = await this.rulesOf(manager, organizationId, location.id);
    const range = rangeBounds(start, end, zone);
    const context = rangeBounds(addDays(start, -7), addDays(end, 7), zone);
    const planned = await loadPlannedSchedule(manager, organizationId, location.id, range, context);
    return checkSchedule(planned.shifts, planned.changes, planned.timeOff, rules, { zone, weekStart, now: this.deps.clock.now() });
  }

  private async profileOf(manager: EntityManager, organizationId: string, locationId: string): Promise<ComplianceProfile> {
    const stored = await loadProfile(manager, organizationId, locationId);
    const rules = new ComplianceRules(stored.preset, stored.overrides);
    return Object.assign(new ComplianceProfile(), {
      locationId,
      preset: stored.preset,
      overridden: Object.keys(stored.overrides).sort(),
      updatedAt: stored.updatedAt,
      ...rules.figures,
    });
  }
}

