import { EntityManager } from "typeorm";
import { Actor } from "../../auth/actor";
import { TenantRecords } from "../../common/tenant-records";
import { localDate, parseDateRange } from "../../common/time";
import { ServiceDeps } from "../../common/services";
import { invalidField } from "../../errors/app-error";
import { Location } from "../locations";
import { ComplianceFigures, ComplianceRules, NUMERIC_FIGURES, NumericFigure } from "./compliance-presets";
import { loadProfile, saveProfile } from "./compliance.store";
import { ComplianceCheckInput, ComplianceCheckResult, ComplianceProfile, ComplianceViolation, UpdateComplianceProfileInput } from "./compliance.types";
import { presentViolation, scheduleViolations } from "./schedule-compliance";

const FIGURE_NAMES = [...(Object.keys(NUMERIC_FIGURES) as NumericFigure[]), "seventhDayRule"] as const;

/**
 * Labor rules per location: the profile (a preset and the figures the location overrides) and the
 * check of a planned schedule against it.
 */
export class ComplianceService {
  readonly locations: TenantRecords<Location>;

  constructor(private readonly deps: ServiceDeps) {
    this.locations = new TenantRecords(deps, Location, "Location");
  }

  async profile(actor: Actor, locationId: string): Promise<ComplianceProfile> {
    const location = await this.locations.get(actor, locationId);
    return this.profileOf(this.deps.db.manager, actor.organizationId, location.id);
  }

  /** Sets the preset and the figures given (null: the rule off); `resetFigures` go back to the preset's. */
  updateProfile(actor: Actor, locationId: string, input: UpdateComplianceProfileInput): Promise<ComplianceProfile> {
    if (input.preset === null) throw invalidField("preset", "preset cannot be null; use NONE");
    if (input.seventhDayRule === null) throw invalidField("seventhDayRule", "seventhDayRule cannot be null");
    return this.deps.unitOfWork.run(async (manager) => {
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
    const violations = await scheduleViolations(this.deps.db.manager, actor.organizationId, location, start, end, this.deps.clock.now());
    return { startDate: start, endDate: end, violations: violations.map(presentViolation) };
  }

  /** The violations of one entry or draft: its day checked with its worker's week around it. */
  async violationsOfRecord(actor: Actor, record: { id: string; locationId: string; startsAt: Date }): Promise<ComplianceViolation[]> {
    const location = await this.locations.get(actor, record.locationId);
    const day = localDate(record.startsAt, location.timezone);
    const violations = await scheduleViolations(this.deps.db.manager, actor.organizationId, location, day, day, this.deps.clock.now());
    return violations.filter((v) => v.entryIds.includes(record.id)).map(presentViolation);
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
