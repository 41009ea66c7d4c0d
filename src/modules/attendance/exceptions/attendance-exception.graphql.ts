import { Length } from "../../../common/input-checks";
import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { Connection, PageArgs } from "../../../common/pagination";

export enum AttendanceExceptionKind {
  LATE_IN = "LATE_IN",
  EARLY_OUT = "EARLY_OUT",
  NO_SHOW = "NO_SHOW",
  MISSED_CLOCK_OUT = "MISSED_CLOCK_OUT",
  UNSCHEDULED_SHIFT = "UNSCHEDULED_SHIFT",
  CLOCK_RULE = "CLOCK_RULE",
  MISSED_BREAK = "MISSED_BREAK",
  LONG_SHIFT = "LONG_SHIFT",
}
registerEnumType(AttendanceExceptionKind, { name: "AttendanceExceptionKind", description: "What went wrong (docs/attendance.md)" });

export enum AttendanceExceptionStatus {
  OPEN = "OPEN",
  EXCUSED = "EXCUSED",
  RESOLVED = "RESOLVED",
}
registerEnumType(AttendanceExceptionStatus, { name: "AttendanceExceptionStatus" });

/** Which kinds hold up a timesheet's approval while OPEN. */
export const CRITICAL_KINDS: ReadonlySet<AttendanceExceptionKind> = new Set([
  AttendanceExceptionKind.NO_SHOW,
  AttendanceExceptionKind.MISSED_CLOCK_OUT,
  AttendanceExceptionKind.CLOCK_RULE,
]);

export const severityOf = (kind: AttendanceExceptionKind): string => (CRITICAL_KINDS.has(kind) ? "critical" : "warning");

@ObjectType({ simpleResolvers: true, description: "How a manager closed an exception" })
export class AttendanceResolution {
  @Field()
  note: string;

  @Field(() => ID, { nullable: true, description: "The staff member who closed it (null for an organization-wide token)" })
  resolvedBy: string | null;

  @Field()
  resolvedAt: Date;
}

@ObjectType({ simpleResolvers: true, description: "Something that did or did not happen at a punch, once per shift or entry and kind" })
export class AttendanceException {
  @Field(() => ID)
  id: string;

  @Field(() => AttendanceExceptionKind)
  kind: AttendanceExceptionKind;

  @Field({ description: "critical (NO_SHOW, MISSED_CLOCK_OUT, CLOCK_RULE: holds up approval while OPEN) or warning" })
  severity: string;

  @Field(() => ID)
  staffId: string;

  @Field(() => ID)
  locationId: string;

  @Field(() => ID, { nullable: true, description: "The schedule entry concerned" })
  entryId: string | null;

  @Field(() => ID, { nullable: true, description: "The shift concerned" })
  shiftId: string | null;

  @Field({ description: "The local day of the shift or entry, YYYY-MM-DD" })
  date: string;

  @Field(() => Int, { nullable: true, description: "Minutes late, early, or beyond the long-shift limit" })
  minutes: number | null;

  @Field({ description: "What was found, with its figures" })
  message: string;

  @Field()
  detectedAt: Date;

  @Field(() => AttendanceExceptionStatus)
  status: AttendanceExceptionStatus;

  @Field(() => AttendanceResolution, { nullable: true })
  resolution: AttendanceResolution | null;

  @Field()
  updatedAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class AttendanceExceptionConnection extends Connection(AttendanceException) {}

@ArgsType()
export class AttendanceExceptionArgs extends PageArgs {
  @Field({ description: "First local day, YYYY-MM-DD" })
  startDate: string;

  @Field({ description: "Last local day (inclusive), YYYY-MM-DD" })
  endDate: string;

  @Field(() => AttendanceExceptionKind, { nullable: true })
  kind?: AttendanceExceptionKind | null;

  @Field(() => AttendanceExceptionStatus, { nullable: true })
  status?: AttendanceExceptionStatus | null;

  @Field(() => ID, { nullable: true })
  staffId?: string | null;

  @Field(() => ID, { nullable: true })
  locationId?: string | null;
}

@InputType({ description: "A manager closes an exception: EXCUSED (it stands, with a reason) or RESOLVED (put right), always with a note" })
export class ResolveAttendanceExceptionInput {
  @Field(() => AttendanceExceptionStatus, { description: "EXCUSED or RESOLVED" })
  status: AttendanceExceptionStatus;

  @Field()
  @Length(1, 2000)
  note: string;
}
