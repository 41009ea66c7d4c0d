import type { DomainModule } from "../modules/module";
import { OpenShiftAssignment } from "./open-shift-assignment";
import { SchedulePublishing } from "./schedule-publishing";

declare module "../common/services" {
  interface Services {
    schedulePublishing: SchedulePublishing;
    openShiftAssignment: OpenShiftAssignment;
  }
}

/**
 * Operations across modules (publishing a schedule, a worker taking an open shift), built after every module whose services
 * they call; their GraphQL fields and REST paths stay with the module that owns the outcome.
 */
export const workflowsModule: DomainModule = {
  services: (deps, built) => ({
    schedulePublishing: new SchedulePublishing(deps, built.schedules, built.scheduleDrafts, built.openShifts),
    openShiftAssignment: new OpenShiftAssignment(built.openShifts, built.schedules),
  }),
  resolvers: [],
  restRoutes: [],
};
