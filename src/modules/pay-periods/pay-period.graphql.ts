import { IsOptional, Length } from "../../common/input-checks";
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { PayFrequency } from "./pay-period.rules";

registerEnumType(PayFrequency, {
  name: "PayFrequency",
  description: "WEEKLY and BIWEEKLY count from the anchor; SEMIMONTHLY is 1st–15th and 16th–end; MONTHLY the calendar month",
});

export enum TimesheetStatus {
  OPEN = "OPEN",
  SUBMITTED = "SUBMITTED",
  APPROVED = "APPROVED",
}
registerEnumType(TimesheetStatus, {
  name: "TimesheetStatus",
  description: "OPEN (not submitted, or reopened), SUBMITTED by the worker, APPROVED by a manager (its shifts frozen)",
});

@ObjectType({ simpleResolvers: true, description: "How the organization's pay periods run" })
export class PayScheduleResult {
  @Field(() => PayFrequency)
  frequency: PayFrequency;

  @Field({ description: "The first day of one period, YYYY-MM-DD" })
  anchorDate: string;

  @Field(() => Date, { nullable: true, description: "Last change; null while the organization runs on the default (weekly from Monday 2024-01-01)" })
  updatedAt: Date | null;
}

@InputType()
export class PayScheduleInput {
  @Field(() => PayFrequency)
  frequency: PayFrequency;

  @Field({ description: "YYYY-MM-DD: the first day of one period" })
  anchorDate: string;
}

@ObjectType({ simpleResolvers: true, description: "One pay period" })
export class PayPeriod {
  @Field()
  startDate: string;

  @Field()
  endDate: string;

  @Field({ description: "Whether the period was closed (its days locked at every location)" })
  closed: boolean;

  @Field(() => Date, { nullable: true })
  closedAt: Date | null;

  @Field({ description: "Closed although not every timesheet was approved" })
  forced: boolean;

  @Field(() => String, { nullable: true, description: "Why a forced close went ahead" })
  reason: string | null;

  @Field(() => [ID], { description: "Who was not approved when the period was closed" })
  notApprovedStaffIds: string[];
}

@ObjectType({ simpleResolvers: true, description: "A staff member's timesheet of a pay period" })
export class PeriodTimesheet {
  @Field(() => ID)
  staffId: string;

  @Field()
  startDate: string;

  @Field()
  endDate: string;

  @Field(() => TimesheetStatus)
  status: TimesheetStatus;

  @Field(() => Int, { description: "Shifts that start in the period" })
  shiftCount: number;

  @Field(() => Int, { description: "Shifts of the period still open (no clock-out)" })
  openShiftCount: number;

  @Field(() => Int, { description: "OPEN critical attendance exceptions of the period: approval waits for them" })
  openCriticalExceptions: number;

  @Field(() => Date, { nullable: true })
  submittedAt: Date | null;

  @Field(() => Date, { nullable: true })
  approvedAt: Date | null;

  @Field(() => ID, { nullable: true })
  approvedBy: string | null;
}

@InputType({ description: "Closing a period: force (with a reason, which the audit keeps) to close with timesheets not approved" })
export class ClosePayPeriodInput {
  @Field(() => Boolean, { nullable: true })
  force?: boolean | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 2000)
  reason?: string | null;
}
