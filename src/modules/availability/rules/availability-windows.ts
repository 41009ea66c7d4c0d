import { EntityManager } from "typeorm";
import { localDate } from "../../../common/local-time";
import { addDays } from "../../../common/time";
import { readTogether } from "../../../database/read-together";
import { approvedTimeOff } from "../../timeoff";
import { AvailabilityWindow, expandRules } from "./availability-rule.rules";
import { selectApprovedRules } from "./availability-rule.store";

/** Whom and when to resolve availability for. */
export interface AvailabilityQuery {
  organizationId: string;
  /** Null: everyone of the organization. */
  staffIds: readonly string[] | null;
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
export async function availabilityWindows(db: Pick<EntityManager, "query" | "queryRunner">, query: AvailabilityQuery): Promise<AvailabilityWindow[]> {
  return (await availabilityWindowsOf(db, [query]))[0];
}

/**
 * The windows of several queries of one organization (each its own staff, range and time zone), in
 * the queries' order: the same two statements for all of them, over the union of their staff and
 * ranges, then resolved per query in memory.
 */
export async function availabilityWindowsOf(
  db: Pick<EntityManager, "query" | "queryRunner">,
  queries: readonly AvailabilityQuery[],
): Promise<AvailabilityWindow[][]> {
  if (queries.length === 0) return [];
  const staffIds = queries.some((q) => q.staffIds === null) ? null : [...new Set(queries.flatMap((q) => q.staffIds!))];
  const firstDate = queries.map((q) => addDays(localDate(q.from, q.timeZone), -1)).reduce((a, b) => (b < a ? b : a));
  const lastDate = queries.map((q) => localDate(q.until, q.timeZone)).reduce((a, b) => (b > a ? b : a));
  const from = new Date(Math.min(...queries.map((q) => q.from.getTime())));
  const until = new Date(Math.max(...queries.map((q) => q.until.getTime())));
  const [rules, timeOff] = await readTogether(
    db,
    () => selectApprovedRules(db, queries[0].organizationId, staffIds, firstDate, lastDate),
    () => approvedTimeOff(db as EntityManager, queries[0].organizationId, staffIds, from, until),
  );
  return queries.map(({ staffIds, from, until, timeZone }) => {
    const whose = staffIds && new Set(staffIds);
    const windows = expandRules(whose ? rules.filter((r) => whose.has(r.staffId)) : rules, from, until, timeZone);
    for (const t of timeOff) {
      if ((whose && !whose.has(t.staffId)) || t.start >= until || t.end <= from) continue;
      windows.push({
        staffId: t.staffId,
        kind: "UNAVAILABLE",
        source: "TIME_OFF",
        sourceId: t.id,
        date: localDate(t.start, timeZone),
        start: t.start,
        end: t.end,
        wholeDay: false,
        weight: 1,
        templateId: null,
      });
    }
    return windows.sort((a, b) => a.start.getTime() - b.start.getTime() || a.staffId.localeCompare(b.staffId));
  });
}
