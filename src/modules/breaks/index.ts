/** The front door of break types and the mandatory-break rules: the only file other modules import. */
export { BreakType } from "./break-type.entity";
export { MandatoryBreakRule, selectMandatoryBreakRules } from "./break-type.store";
export { breaksModule } from "./breaks.module";
