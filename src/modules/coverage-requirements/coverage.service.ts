import { EntityManager } from "typeorm";
import { Actor } from "../../auth/actor";
import { ServiceDeps } from "../../common/services";
import { isUuid } from "../../common/ids";
import { TenantRecords } from "../../common/tenant-records";
import { addDays, localDate, parseDate, parseDateRange, startOfLocalDay } from "../../common/time";
import { invalidField, unknownReference } from "../../errors/app-error";
import { recordEvent } from "../events";
import { Location } from "../locations";
import { countByDayAndTemplate } from "../schedules";
import { locationTemplates } from "../shift-templates";
import { CoverageRequirement } from "./coverage.entity";
import { CoverageArgs, CoverageLine, ReplaceCoverageInput } from "./coverage.inputs";
import { deleteRequirements, insertRequirements, selectRequirementsBetween } from "./coverage.store";

/** A location's requirements on the days start..end, by day and template, in the caller's transaction. */
export function selectRequirements(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  start: string,
  end: string,
): Promise<CoverageRequirement[]> {
  return selectRequirementsBetween(manager, { organizationId, locationId, start, end });
}

/** How many people each template needs on each day at a location, and what the planned schedule gives. */
export class CoverageService {
  private readonly locations: TenantRecords<Location>;

  constructor(private readonly deps: ServiceDeps) {
    this.locations = new TenantRecords(deps, Location, "Location");
  }

  /** Without dates: the week from the location's today. */
  async get(actor: Actor, args: CoverageArgs): Promise<CoverageLine[]> {
    const location = await this.locations.get(actor, args.locationId);
    const startDate = args.startDate ?? localDate(this.deps.clock.now(), location.timezone);
    const { start, end } = parseDateRange(startDate, args.endDate ?? addDays(startDate, 6));
    return this.lines(this.deps.db.manager, location, start, end);
  }

  /** Replaces every requirement of the range with the ones given, in one transaction. */
  replace(actor: Actor, locationId: string, input: ReplaceCoverageInput): Promise<CoverageLine[]> {
    const { start, end } = parseDateRange(input.startDate, input.endDate);
    const org = actor.organizationId;
    const seen = new Set<string>();
    input.requirements.forEach((r, i) => {
      const date = parseDate(r.date, `requirements.${i}.date`);
      if (date < start || date > end) throw invalidField(`requirements.${i}.date`, "A requirement's date must lie inside startDate..endDate");
      const key = `${date} ${String(r.templateId).toLowerCase()}`;
      if (seen.has(key)) throw invalidField(`requirements.${i}`, "One requirement per day and template");
      seen.add(key);
    });
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await this.locations.get(actor, locationId, { manager, lock: true });
      const known = new Set(await locationTemplateIds(manager, org, location.id));
      input.requirements.forEach((r, i) => {
        const id = String(r.templateId).toLowerCase();
        if (!known.has(id))
          throw (isUuid(id) ? unknownReference : invalidField)(`requirements.${i}.templateId`, `${r.templateId} is not a shift template of this location`);
      });
      await deleteRequirements(manager, org, location.id, start, end);
      await insertRequirements(
        manager,
        input.requirements.map((r) => ({
          organizationId: org,
          locationId: location.id,
          templateId: String(r.templateId).toLowerCase(),
          date: r.date,
          count: r.count,
          underWeight: r.underWeight ?? 1,
          overWeight: r.overWeight ?? 0,
        })),
      );
      await recordEvent(manager, org, "coverage.replaced", {
        locationId: location.id,
        startDate: start,
        endDate: end,
        requirements: input.requirements.length,
      });
      return this.lines(manager, location, start, end);
    });
  }

  private async lines(manager: EntityManager, location: Location, start: string, end: string): Promise<CoverageLine[]> {
    const org = location.organizationId;
    const requirements = await selectRequirements(manager, org, location.id, start, end);
    const bounds = { from: startOfLocalDay(start, location.timezone), to: startOfLocalDay(addDays(end, 1), location.timezone) };
    const counts = await countByDayAndTemplate(manager, location, bounds);
    const assigned = new Map(counts.map((c) => [`${c.date} ${c.templateId}`, c.count]));
    return requirements.map((r) => lineOf(r, assigned.get(`${r.date} ${r.templateId}`) ?? 0));
  }
}

async function locationTemplateIds(manager: EntityManager, organizationId: string, locationId: string): Promise<string[]> {
  return (await locationTemplates(manager, organizationId, locationId)).map((t) => t.id);
}

function lineOf(r: CoverageRequirement, assigned: number): CoverageLine {
  return {
    date: r.date,
    templateId: r.templateId,
    count: r.count,
    underWeight: r.underWeight,
    overWeight: r.overWeight,
    assigned,
    missing: Math.max(0, r.count - assigned),
  };
}
