import { Actor } from "../../../auth/actor";
import { requireUuid } from "../../../common/ids";
import { ServiceDeps } from "../../../common/services";
import { parseTimestamp } from "../../../common/time";
import { invalidField, notFound, unknownReference } from "../../../errors/app-error";
import { selectTimeZone } from "../rules/availability-rule.store";
import { evaluateShiftEligibility } from "./eligibility";
import { EligibilityInput } from "./eligibility.graphql";
import { StaffEligibility } from "./eligibility.rules";
import { selectShift } from "./eligibility.store";

/** Who can take a shift, why not, and what it would cost: for a time range and role, an open shift, or a published entry. */
export class EligibilityService {
  constructor(private readonly deps: ServiceDeps) {}

  async forRange(actor: Actor, input: EligibilityInput): Promise<StaffEligibility[]> {
    const org = actor.organizationId;
    const locationId = requireUuid(input.locationId, "Location");
    const timeZone = await selectTimeZone(this.deps.db.manager, org, locationId);
    if (!timeZone) throw unknownReference("locationId", `No location has id "${input.locationId}"`);
    const roleId = requireUuid(input.roleId, "Role");
    const roles: unknown[] = await this.deps.db.query("SELECT 1 FROM roles WHERE organization_id = $1 AND id = $2", [org, roleId]);
    if (!roles.length) throw unknownReference("roleId", `No role has id "${input.roleId}"`);
    const start = parseTimestamp(input.startTime, timeZone, "startTime");
    const end = parseTimestamp(input.endTime, timeZone, "endTime");
    if (end <= start) throw invalidField("endTime", "endTime must be after startTime");
    if (end.getTime() - start.getTime() > 7 * 86_400_000) throw invalidField("endTime", "A shift lasts at most 7 days");
    const staffIds = input.staffIds ? [...new Set(input.staffIds.map((id) => requireUuid(id, "Staff member")))] : null;
    const results = await evaluateShiftEligibility(this.deps.db.manager, {
      organizationId: org,
      locationId,
      timeZone,
      roleId,
      start,
      end,
      staffIds,
      templateId: input.templateId ? requireUuid(input.templateId, "Shift template") : null,
      now: this.deps.clock.now(),
    });
    if (staffIds && results.length < staffIds.length) {
      const missing = staffIds.find((id) => !results.some((r) => r.staffId === id));
      throw unknownReference("staffIds", `No staff member has id "${missing}"`);
    }
    return results;
  }

  /** Every active staff member for a published entry (its own worker included, their entry set aside) or an open shift. */
  async forShift(actor: Actor, locationId: string, id: string, kind: "entry" | "open shift"): Promise<StaffEligibility[]> {
    const org = actor.organizationId;
    const shift = await selectShift(
      this.deps.db.manager,
      org,
      requireUuid(locationId, "Location"),
      requireUuid(id, kind === "entry" ? "Schedule entry" : "Open shift"),
      kind,
    );
    if (!shift) throw notFound(kind === "entry" ? "Schedule entry" : "Open shift");
    return evaluateShiftEligibility(this.deps.db.manager, {
      organizationId: org,
      locationId: shift.locationId,
      timeZone: shift.timeZone,
      roleId: shift.roleId,
      start: shift.start,
      end: shift.end,
      staffIds: null,
      unpaidBreakMinutes: shift.unpaidBreakMinutes,
      ignoredEntryIds: new Set([shift.id]),
      now: this.deps.clock.now(),
    });
  }
}
