/** The front door of compliance: the location's rules and the pure checks others plan with. */
export { complianceModule } from "./compliance.module";
export { rulesOf } from "./schedule-compliance";
export { ComplianceRules } from "./compliance-presets";
export type { ComplianceFigures } from "./compliance-presets";
export { restShortfall, workedMinutes } from "./compliance-rules";
