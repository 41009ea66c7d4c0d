import type { DomainModule } from "../module";
import { ScheduleDraftService } from "./schedule-drafts.service";
import { ScheduleDraftResolver, ScheduleEntryResolver } from "./schedule.resolver";
import { scheduleRoutes } from "./schedule.routes";
import { ScheduleService } from "./schedule.service";

declare module "../../common/services" {
  interface Services {
    schedules: ScheduleService;
    scheduleDrafts: ScheduleDraftService;
  }
}

/** Schedules: published entries, drafts and publishing. */
export const schedulesModule: DomainModule = {
  services: (deps) => {
    const schedules = new ScheduleService(deps);
    return { schedules, scheduleDrafts: new ScheduleDraftService(deps, schedules) };
  },
  resolvers: [ScheduleEntryResolver, ScheduleDraftResolver],
  restRoutes: scheduleRoutes,
};
