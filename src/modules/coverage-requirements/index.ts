/** The front door of coverage requirements. */
export { coverageModule } from "./coverage.module";
export type { CoverageService } from "./coverage.service";
export { CoverageRequirement } from "./coverage.entity";
export { selectRequirements } from "./coverage.store";
