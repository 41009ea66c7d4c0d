/** The front door of break types and the mandatory-break rules: the only file other modules import. */
export { BreakType } from "./break-type.entity";
export { mandatoryBreakRules } from "./break-type.service";
export type { MandatoryBreakRule } from "./break-type.service";
export { breaksModule } from "./breaks.module";
