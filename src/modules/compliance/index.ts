/** The front door of labor rules: location profiles, the rules themselves, violations and predictability pay: the only file other modules import. */
export { ComplianceFigures, ComplianceRules } from "./compliance-presets";
export { PlannedBreakSpan, missedMealBreaks, restPremium, restShortfall } from "./compliance-rules";
export { complianceModule } from "./compliance.module";
export { VIOLATION_FIELDS } from "./compliance.routes";
export { RecordedPredictabilityPay, loadLocationRules, recordedPredictabilityPay } from "./compliance.store";
export { ComplianceViolation } from "./compliance.types";
export type { PayrollNames } from "./compliance.types";
export { OvertimeSplit, Workday, splitWorkweek } from "./overtime";
export { EntryChange, gatePublishing, LocationRules, recordPredictabilityPay, rulesOf } from "./schedule-compliance";
