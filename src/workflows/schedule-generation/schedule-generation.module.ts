import type { DomainModule } from "../../modules/module";
import { ScheduleGenerationResolver } from "./generation.resolver";
import { generationRoutes } from "./generation.routes";
import { ScheduleGenerationService } from "./generation.service";

declare module "../../common/services" {
  interface Services {
    scheduleGenerations: ScheduleGenerationService;
  }
}

/** Schedule generation: drafts for a location's range that keep every hard rule, with the reasons. */
export const scheduleGenerationModule: DomainModule = {
  services: (deps) => ({ scheduleGenerations: new ScheduleGenerationService(deps) }),
  resolvers: [ScheduleGenerationResolver],
  restRoutes: generationRoutes,
  jobs: (services) => [services.scheduleGenerations.job],
};
