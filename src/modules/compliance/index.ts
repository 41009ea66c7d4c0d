/** The compliance domain's front door: what other modules may use of it. */
export { complianceModule } from "./compliance.module";
export { dailyHours, predictabilityPay, restBetweenShifts, shiftLength, weeklyHours } from "./compliance-rules";
export type { CheckContext, PlannedShift, Violation } from "./compliance-rules";
export type { ComplianceRules, RuleId } from "./compliance-presets";
export { recordPredictabilityPay, rulesOf } from "./schedule-compliance";
export type { EntryChange } from "./schedule-compliance";
