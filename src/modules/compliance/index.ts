/** The front door of labor rules: location profiles, the rules themselves, violations and predictability pay: the only file other modules import. */
export { ComplianceFigures, ComplianceRules } from "./compliance-presets";
export type { RuleId } from "./compliance-presets";
export {
  dailyHours,
  missedMealBreaks,
  PlannedBreakSpan,
  predictabilityPay,
  restBetweenShifts,
  restPremium,
  restShortfall,
  shiftLength,
  weeklyHours,
} from "./compliance-rules";
export type { CheckContext, PlannedShift, Violation } from "./compliance-rules";
export { complianceModule } from "./compliance.module";
export { VIOLATION_FIELDS } from "./compliance.routes";
export { ComplianceViolation, RecordedChangePay } from "./compliance.types";
export type { PayrollNames } from "./compliance.types";
export { OvertimeSplit, Workday, splitWorkweek } from "./overtime";
export {
  EntryChange,
  gatePublishing,
  loadLocationRules,
  LocationRules,
  recordedPredictabilityPay,
  recordPredictabilityPay,
  rulesOf,
  rulesOfLocations,
} from "./schedule-compliance";
export type { RecordedPredictabilityPay } from "./schedule-compliance";
