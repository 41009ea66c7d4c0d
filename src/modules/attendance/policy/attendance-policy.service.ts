import { Actor } from "../../../auth/actor";
import { ServiceDeps } from "../../../common/services";
import { AttendancePolicy, AttendancePolicyInput } from "./attendance-policy.graphql";
import { DEFAULT_POLICY, savePolicy, selectPolicy } from "./attendance-policy.store";

export class AttendancePolicyService {
  constructor(private readonly deps: ServiceDeps) {}

  get(actor: Actor): Promise<AttendancePolicy> {
    return selectPolicy(this.deps.db.manager, actor.organizationId);
  }

  put(actor: Actor, input: AttendancePolicyInput): Promise<AttendancePolicy> {
    const policy = {
      lateGraceMinutes: input.lateGraceMinutes ?? DEFAULT_POLICY.lateGraceMinutes,
      earlyOutGraceMinutes: input.earlyOutGraceMinutes ?? DEFAULT_POLICY.earlyOutGraceMinutes,
      noShowAfterMinutes: input.noShowAfterMinutes ?? DEFAULT_POLICY.noShowAfterMinutes,
      missedClockOutAfterMinutes: input.missedClockOutAfterMinutes ?? DEFAULT_POLICY.missedClockOutAfterMinutes,
      longShiftHours: input.longShiftHours ?? DEFAULT_POLICY.longShiftHours,
    };
    return this.deps.unitOfWork.run(async (manager) => {
      await savePolicy(manager, actor.organizationId, policy, this.deps.clock.now());
      return selectPolicy(manager, actor.organizationId);
    });
  }
}
