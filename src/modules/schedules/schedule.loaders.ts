import { formatLocal } from "../../common/time";
import type { RequestContext } from "../../graphql/context";
import { organizationLoader, requestLoader } from "../../graphql/request-loader";
import { PlannedBreak, ScheduleBreak, ScheduleEntry, WorkerShiftPlan } from "./schedule.entity";

const plannedBreak = (b: ScheduleBreak, zone: string): PlannedBreak => ({
  id: b.id,
  typeId: b.typeId,
  name: b.name,
  paid: b.paid,
  durationMinutes: b.durationMinutes,
  startTime: b.startsAt && formatLocal(b.startsAt, zone),
  endTime: b.startsAt && formatLocal(new Date(b.startsAt.getTime() + b.durationMinutes * 60000), zone),
});

const entryBreaksLoader = organizationLoader<string, ScheduleBreak[]>("scheduleEntryBreaks", (services, organizationId, ids) =>
  services.schedules.breaksOfEntries(organizationId, ids),
);

const draftBreaksLoader = organizationLoader<string, ScheduleBreak[]>("scheduleDraftBreaks", (services, organizationId, ids) =>
  services.scheduleDrafts.breaksOfDrafts(organizationId, ids),
);

/** Keys are `[locationId, id]` as JSON: ids in a path are the caller's text. */
const entryLoader = requestLoader<string, ScheduleEntry>("scheduleEntry", (services, actor, keys) =>
  services.schedules.getMany(
    actor,
    keys.map((key) => {
      const [locationId, id] = JSON.parse(key) as [string, string];
      return { locationId, id };
    }),
  ),
);

/** A published entry of a location, as its GET answers it (ScheduleService.getMany); the GETs of one request read together. */
export function scheduleEntryAt(ctx: RequestContext, locationId: string, id: string): Promise<ScheduleEntry> {
  return entryLoader(ctx).load(JSON.stringify([locationId, id]));
}

/** The planned breaks of an entry (or, with `draft`, of a draft), in the location's local time. */
export async function plannedBreaks(ctx: RequestContext, plan: WorkerShiftPlan, draft: boolean): Promise<PlannedBreak[]> {
  const breaks = await (draft ? draftBreaksLoader : entryBreaksLoader)(ctx).load(plan.id);
  return breaks.map((b) => plannedBreak(b, plan.timezone));
}
