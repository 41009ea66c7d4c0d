import type { DomainModule } from "../modules/module";
import { SchedulePublishing } from "./schedule-publishing";

declare module "../common/services" {
  interface Services {
    schedulePublishing: SchedulePublishing;
  }
}

/**
 * Operations across modules (publishing a schedule), built after every module whose services
 * they call; their GraphQL fields and REST paths stay with the module that owns the outcome.
 */
export const workflowsModule: DomainModule = {
  services: (deps, built) => ({ schedulePublishing: new SchedulePublishing(deps, built.schedules, built.scheduleDrafts, built.openShifts) }),
  resolvers: [],
  restRoutes: [],
};
