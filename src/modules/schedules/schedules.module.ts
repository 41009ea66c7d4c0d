import { ServiceDeps } from "../../app/deps";
import { RestRoute } from "../../rest/route";
import { OpenShiftPreferenceResolver, OpenShiftResolver } from "../open-shifts/open-shift.resolver";
import { openShiftRoutes } from "../open-shifts/open-shift.routes";
import { OpenShiftService } from "../open-shifts/open-shift.service";
import { ScheduleDraftService } from "./schedule-drafts.service";
import { ScheduleDraftResolver, ScheduleEntryResolver } from "./schedule.resolver";
import { scheduleRoutes } from "./schedule.routes";
import { ScheduleService } from "./schedule.service";

/** The scheduling part: published entries, drafts and publishing, open shifts and their preferences. */
export function createScheduleServices(deps: ServiceDeps) {
  const schedules = new ScheduleService(deps);
  return {
    schedules,
    scheduleDrafts: new ScheduleDraftService(deps, schedules),
    openShifts: new OpenShiftService(deps),
  };
}

export const scheduleResolvers = [ScheduleEntryResolver, ScheduleDraftResolver, OpenShiftResolver, OpenShiftPreferenceResolver] as const;

export const scheduleRestRoutes: RestRoute[] = [...scheduleRoutes, ...openShiftRoutes];
