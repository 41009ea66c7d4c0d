import { Actor } from "../../../auth/actor";
import { hashSecret, newSecret } from "../../../auth/secrets";
import { requireUuid } from "../../../common/ids";
import { ServiceDeps } from "../../../common/services";
import { notFound } from "../../../errors/app-error";
import { requireLocation } from "../clock-rules/clock-rules.service";
import { ClockDevice, RegisterClockDeviceInput, RegisteredClockDevice } from "./clock-devices.graphql";
import { insertDevice, revokeDevice, selectDevices } from "./clock-devices.store";

/** Registered kiosks: the token is made here, shown once, and kept only as its hash. */
export class ClockDeviceService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(actor: Actor, locationId: string): Promise<ClockDevice[]> {
    const id = await requireLocation(this.deps.db.manager, actor.organizationId, locationId);
    return selectDevices(this.deps.db.manager, actor.organizationId, id);
  }

  register(actor: Actor, locationId: string, input: RegisterClockDeviceInput): Promise<RegisteredClockDevice> {
    const token = newSecret("wfd");
    return this.deps.unitOfWork.run(async (manager) => {
      const id = await requireLocation(manager, actor.organizationId, locationId);
      const device = await insertDevice(manager, actor.organizationId, id, input.name.trim(), hashSecret(token), this.deps.clock.now());
      return { device, token };
    });
  }

  /** Revokes the device: its token no longer punches (and says so). */
  revoke(actor: Actor, locationId: string, id: string): Promise<boolean> {
    return this.deps.unitOfWork.run(async (manager) => {
      const location = await requireLocation(manager, actor.organizationId, locationId);
      if (!(await revokeDevice(manager, actor.organizationId, location, requireUuid(id, "Clock device"), this.deps.clock.now())))
        throw notFound("Clock device");
      return true;
    });
  }
}
