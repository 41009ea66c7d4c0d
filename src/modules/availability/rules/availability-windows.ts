import { DateTime } from "luxon";
import { EntityManager } from "typeorm";
import { addDays } from "../../../common/time";
import { approvedTimeOff } from "../../timeoff";
import { AvailabilityWindow, expandRules } from "./availability-rule.rules";
import { selectApprovedRules } from "./availability-rule.store";

/** Whom and when to resolve availability for. */
export interface AvailabilityQuery {
  organizationId: string;
  staffIds: readonly string[];
  from: Date;
  until: Date;
  /** The location's time zone: the rules' wall times are read in it. */
  timeZone: string;
}

/**
 * Every unavailable window (approved UNAVAILABLE rules and approved time off) and preference
 * (approved PREFER_ON and PREFER_OFF rules) of the staff members that overlaps [from, until), as
 * plain data: two statements whatever the number of staff. Pending and declined rules do not count.
 */
export async function availabilityWindows(db: Pick<EntityManager, "query">, query: AvailabilityQuery): Promise<AvailabilityWindow[]> {
  const { organizationId, staffIds, from, until, timeZone } = query;
  const firstDate = addDays(DateTime.fromJSDate(from, { zone: timeZone }).toISODate()!, -1);
  const lastDate = DateTime.fromJSDate(until, { zone: timeZone }).toISODate()!;
  const rules = await selectApprovedRules(db, organizationId, staffIds, firstDate, lastDate);
  const timeOff = await approvedTimeOff(db as EntityManager, organizationId, staffIds, from, until);
  const windows = expandRules(rules, from, until, timeZone);
  for (const t of timeOff) {
    windows.push({
      staffId: t.staffId,
      kind: "UNAVAILABLE",
      source: "TIME_OFF",
      sourceId: t.id,
      date: DateTime.fromJSDate(t.start, { zone: timeZone }).toISODate()!,
      start: t.start,
      end: t.end,
      wholeDay: false,
      weight: 1,
      templateId: null,
    });
  }
  return windows.sort((a, b) => a.start.getTime() - b.start.getTime() || a.staffId.localeCompare(b.staffId));
}
