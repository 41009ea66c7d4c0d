import { EntityManager } from "typeorm";
import { Actor } from "../../../auth/actor";
import { requireUuid } from "../../../common/ids";
import { ServiceDeps } from "../../../common/services";
import { invalidField, notFound } from "../../../errors/app-error";
import { selectLocationZone } from "../attendance.store";
import { ClockEnforcement, ClockRules, ClockRulesInput } from "./clock-rules.graphql";
import { normalCidr } from "./clock-rules.rules";
import { saveClockRules, selectClockRules } from "./clock-rules.store";

/** A location's clock rules: where, from which network and device, and how early punches may come. */
export class ClockRulesService {
  constructor(private readonly deps: ServiceDeps) {}

  async get(actor: Actor, locationId: string): Promise<ClockRules> {
    const id = await requireLocation(this.deps.db.manager, actor.organizationId, locationId);
    return (await selectClockRules(this.deps.db.manager, actor.organizationId, id)) ?? noRules(id);
  }

  put(actor: Actor, locationId: string, input: ClockRulesInput): Promise<ClockRules> {
    const allowedNetworks = (input.allowedNetworks ?? []).map((value, i) => {
      const cidr = normalCidr(value);
      if (!cidr) throw invalidField(`allowedNetworks.${i}`, `"${value}" is not a network in CIDR notation such as 203.0.113.0/24 or 2001:db8::/32`);
      return cidr;
    });
    return this.deps.unitOfWork.run(async (manager) => {
      const id = await requireLocation(manager, actor.organizationId, locationId);
      await saveClockRules(
        manager,
        actor.organizationId,
        {
          locationId: id,
          geofence: input.geofence ?? null,
          allowedNetworks: [...new Set(allowedNetworks)],
          requireDevice: input.requireDevice ?? false,
          earlyClockInMinutes: input.earlyClockInMinutes ?? null,
          requireSchedule: input.requireSchedule ?? false,
          enforcement: input.enforcement ?? ClockEnforcement.BLOCK,
        },
        this.deps.clock.now(),
      );
      return (await selectClockRules(manager, actor.organizationId, id))!;
    });
  }
}

function noRules(locationId: string): ClockRules {
  return {
    locationId,
    geofence: null,
    allowedNetworks: [],
    requireDevice: false,
    earlyClockInMinutes: null,
    requireSchedule: false,
    enforcement: ClockEnforcement.BLOCK,
    updatedAt: null,
  };
}

/** The location's id as stored; another organization's is 404 like an unknown one. */
export async function requireLocation(manager: EntityManager, organizationId: string, locationId: string): Promise<string> {
  const location = await selectLocationZone(manager, organizationId, requireUuid(locationId, "Location"));
  if (!location) throw notFound("Location");
  return location.id;
}
