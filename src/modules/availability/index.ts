/** The availability domain's front door: what other modules and workflows may use of it. */
export { availabilityModule } from "./availability.module";
export type { AvailabilityRuleService } from "./rules/availability-rule.service";
export { availabilityWindows } from "./rules/availability-windows";
export type { AvailabilityQuery } from "./rules/availability-windows";
export { matchesShift } from "./rules/availability-rule.rules";
export type { AvailabilityKind, AvailabilityWindow } from "./rules/availability-rule.rules";
export type { EligibilityService } from "./eligibility/eligibility.service";
export { evaluateShiftEligibility, evaluateShiftsEligibility, notEligible, refuseUnavailable, requireEligible } from "./eligibility/eligibility";
export type { EligibilityQuery } from "./eligibility/eligibility";
export type { EligibilityFinding, EligibilityPremium, StaffEligibility } from "./eligibility/eligibility.rules";
export { EligibilityFindingView, PremiumView, StaffEligibilityView } from "./eligibility/eligibility.graphql";
export { ELIGIBILITY_FIELDS } from "./eligibility/eligibility.routes";
