import { EntityManager, IsNull } from "typeorm";
import { Actor } from "../../auth/actor";
import { requireUuid } from "../../common/ids";
import { TenantRecords } from "../../common/tenant-records";
import { rejectNulls } from "../../common/validation";
import { ServiceDeps } from "../../common/services";
import { notFound } from "../../errors/app-error";
import { groupByKeys } from "../../loaders/loaders";
import { Location } from "../locations";
import { BreakType } from "./break-type.entity";
import { CreateBreakTypeInput, UpdateBreakTypeInput } from "./break-type.inputs";
import { MandatoryBreakRule, selectLiveBreakTypes, selectMandatoryBreakRules } from "./break-type.store";

export type { MandatoryBreakRule } from "./break-type.store";

/** The rules of the organization's live, enabled mandatory break types, by location. */
export function mandatoryBreakRules(manager: EntityManager, organizationId: string): Promise<Map<string, MandatoryBreakRule[]>> {
  return selectMandatoryBreakRules(manager, organizationId);
}

/** Break types of a location: what breaks staff take, how long, and whether they are paid. */
export class BreakTypeService {
  private readonly locations: TenantRecords<Location>;

  constructor(private readonly deps: ServiceDeps) {
    this.locations = new TenantRecords(deps, Location, "Location");
  }

  private get repo() {
    return this.deps.db.getRepository(BreakType);
  }

  async list(actor: Actor, locationId: string, includeDeleted = false): Promise<BreakType[]> {
    await this.locations.get(actor, locationId);
    return this.repo.find({
      where: { organizationId: actor.organizationId, locationId: locationId.toLowerCase(), ...(includeDeleted ? {} : { deletedAt: IsNull() }) },
      order: { name: "ASC", id: "ASC" },
    });
  }

  /** The live break types of many locations, for loaders. */
  async ofLocations(organizationId: string, locationIds: readonly string[]): Promise<BreakType[][]> {
    const rows = await selectLiveBreakTypes(this.deps.db.manager, organizationId, locationIds);
    return groupByKeys(locationIds, rows, (b) => b.locationId);
  }

  async create(actor: Actor, input: CreateBreakTypeInput): Promise<BreakType> {
    const { id: locationId } = await this.locations.get(actor, input.locationId);
    const breakType = this.repo.create({
      organizationId: actor.organizationId,
      locationId,
      name: input.name.trim(),
      durationMinutes: input.durationMinutes,
      frequencyMinutes: input.frequencyMinutes ?? 0,
      paid: input.paid ?? false,
      mandatory: input.mandatory ?? false,
      enabled: input.enabled ?? true,
      active: true,
      deletedAt: null,
    });
    return this.deps.unitOfWork.run((manager) => manager.save(breakType));
  }

  async update(actor: Actor, locationId: string, id: string, input: UpdateBreakTypeInput): Promise<BreakType> {
    rejectNulls(input);
    const breakType = await this.get(actor, locationId, id);
    if (input.name !== undefined) breakType.name = input.name.trim();
    if (input.durationMinutes !== undefined) breakType.durationMinutes = input.durationMinutes;
    if (input.frequencyMinutes !== undefined) breakType.frequencyMinutes = input.frequencyMinutes;
    if (input.paid !== undefined) breakType.paid = input.paid;
    if (input.mandatory !== undefined) breakType.mandatory = input.mandatory;
    if (input.enabled !== undefined) breakType.enabled = input.enabled;
    return this.deps.unitOfWork.run((manager) => manager.save(breakType));
  }

  /** Soft: breaks already taken keep naming their type. */
  async delete(actor: Actor, locationId: string, id: string): Promise<boolean> {
    const breakType = await this.get(actor, locationId, id);
    await this.deps.unitOfWork.run((manager) =>
      manager.update(BreakType, { id: breakType.id, organizationId: actor.organizationId }, { deletedAt: this.deps.clock.now(), active: false }),
    );
    return true;
  }

  /** A live break type of the location; deleted ones and those of other locations are not found. */
  async get(actor: Actor, locationId: string, id: string, manager: EntityManager = this.deps.db.manager): Promise<BreakType> {
    const breakType = await manager.getRepository(BreakType).findOneBy({
      id: requireUuid(id, "Break type"),
      locationId: requireUuid(locationId, "Location"),
      organizationId: actor.organizationId,
      deletedAt: IsNull(),
    });
    if (!breakType) throw notFound("Break type");
    return breakType;
  }
}
