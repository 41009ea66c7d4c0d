/** The front door of coverage requirements. */
export { coverageModule } from "./coverage.module";
export { selectRequirements } from "./coverage.service";
export type { CoverageService } from "./coverage.service";
export { CoverageRequirement } from "./coverage.entity";
