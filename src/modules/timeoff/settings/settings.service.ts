import { EntityManager } from "typeorm";
import { ServiceDeps } from "../../../common/services";
import { Actor } from "../../../auth/actor";
import { definedFields, rejectNulls } from "../../../common/validation";
import { POLICY_TYPE_KINDS } from "../policies/policy-type.entity";
import { UpdateTimeOffSettingsInput } from "./settings.graphql";
import { TimeOffSettings } from "./settings.entity";
import { insertTimeOffDefaults } from "./settings.store";
import { findOneByOrFail } from "../../../common/entity-reads";

/** What every organization starts with: one policy type of each kind and default settings. */
export async function seedTimeOff(manager: EntityManager, organizationId: string): Promise<void> {
  await insertTimeOffDefaults(manager, organizationId, POLICY_TYPE_KINDS);
}

export class TimeOffSettingsService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The settings row exists from the organization's creation (seeder or migration). */
  get(actor: Actor, manager: EntityManager = this.deps.db.manager): Promise<TimeOffSettings> {
    return this.of(actor.organizationId, manager);
  }

  of(organizationId: string, manager: EntityManager = this.deps.db.manager): Promise<TimeOffSettings> {
    return findOneByOrFail(manager, TimeOffSettings, { organizationId });
  }

  async update(actor: Actor, input: UpdateTimeOffSettingsInput): Promise<TimeOffSettings> {
    rejectNulls(input);
    const settings = await this.get(actor);
    Object.assign(settings, definedFields(input));
    return this.deps.unitOfWork.run((manager) => manager.save(settings));
  }
}
