import { Field, Int, ObjectType } from "type-graphql";
import { TenantRecord } from "../../common/entity-columns";
import { ObjectLiteral, SelectQueryBuilder } from "typeorm";
import { addDays, formatLocal, formatUtc, parseDate, parseDateRange, startOfLocalDay, utcOffsetMinutes } from "../../common/time";

/**
 * Something planned at one location between two instants (a schedule entry, a draft, an open
 * shift). The service that loads it sets `timezone` from its location, so that its times come out
 * as the location's wall time.
 */
@ObjectType({ simpleResolvers: true })
export abstract class PlannedRecord extends TenantRecord {
  abstract startsAt: Date;
  abstract endsAt: Date;

  @Field({ description: "IANA time zone of the location" })
  timezone: string;

  @Field(() => Int, { description: "Minutes east of UTC at the start" })
  get utcOffset(): number {
    return utcOffsetMinutes(this.startsAt, this.timezone);
  }

  @Field({ description: "Start in UTC" })
  get utcStartTime(): string {
    return formatUtc(this.startsAt);
  }

  @Field({ description: "End in UTC" })
  get utcEndTime(): string {
    return formatUtc(this.endsAt);
  }

  protected local(instant: Date): string {
    return formatLocal(instant, this.timezone);
  }
}

/** Sets the location's time zone on loaded records, so that their times format as local time. */
export function inZone<T extends { timezone: string }>(records: T[], timezone: string): T[] {
  for (const record of records) record.timezone = timezone;
  return records;
}

/**
 * The instants bounding the location's calendar days `startDate`..`endDate` (inclusive); either
 * may be absent. Both given: a valid range of at most 366 days.
 */
export function dayBounds(startDate: string | undefined, endDate: string | undefined, zone: string): { from?: Date; to?: Date } {
  if (startDate !== undefined && endDate !== undefined) parseDateRange(startDate, endDate);
  return {
    from: startDate === undefined ? undefined : startOfLocalDay(parseDate(startDate, "startDate"), zone),
    to: endDate === undefined ? undefined : startOfLocalDay(addDays(parseDate(endDate, "endDate"), 1), zone),
  };
}

/** Narrows a query to records of alias `r` whose start_time falls inside the bounds. */
export function startingWithin<T extends ObjectLiteral>(query: SelectQueryBuilder<T>, bounds: { from?: Date; to?: Date }): SelectQueryBuilder<T> {
  if (bounds.from) query.andWhere("r.start_time >= :from", { from: bounds.from });
  if (bounds.to) query.andWhere("r.start_time < :to", { to: bounds.to });
  return query;
}
