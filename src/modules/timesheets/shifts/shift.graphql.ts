import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from "type-graphql";
import { ArrayMaxSize, IsOptional, Length, Max, Min, ValidateNested } from "../../../common/input-checks";
import { IsHourlyWage } from "../../../common/money";
import { MAX_HOURLY_WAGE } from "../../roles";
import { NullRefused, NoControlCharacters } from "../../../common/validation";

const MINUTES_PER_DAY = 1440;
const MAX_BREAKS = 50;

@InputType({ description: "A break; with typeId, the fields not given come from the break type" })
export class ShiftBreakInput {
  @Field({ description: "Timestamp; without an offset it is read in the location's time zone" })
  startTime: string;

  @Field(() => String, { nullable: true, description: "Null only for the running break of an open shift" })
  endTime?: string | null;

  @Field(() => ID, { nullable: true })
  typeId?: string | null;

  @Field(() => Boolean, { nullable: true })
  paid?: boolean;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 200)
  @NoControlCharacters()
  name?: string;

  @Field(() => Boolean, { nullable: true })
  mandatory?: boolean;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(0)
  @Max(MINUTES_PER_DAY)
  frequencyMinutes?: number;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(0)
  @Max(MINUTES_PER_DAY)
  durationInSettingsMinutes?: number;
}

@InputType()
export class CreateShiftInput {
  @Field(() => ID)
  employeeId: string;

  @Field(() => ID)
  locationId: string;

  @Field(() => ID)
  roleId: string;

  @Field({ description: "Timestamp; without an offset it is read in the location's time zone" })
  startTime: string;

  @Field(() => String, { nullable: true, description: "Absent or null: an open shift" })
  endTime?: string | null;

  @Field(() => [ShiftBreakInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(MAX_BREAKS)
  @ValidateNested({ each: true })
  breaks?: ShiftBreakInput[];

  @Field(() => Float, { nullable: true, description: "Default: the staff member's wage for the role, else the role's wage" })
  @IsOptional()
  @IsHourlyWage(MAX_HOURLY_WAGE)
  hourlyWage?: number;
}

@InputType({ description: "Fields given are changed; breaks given replace all of the shift's breaks" })
@NullRefused<UpdateShiftInput>("startTime", "endTime", "roleId", "hourlyWage", "breaks")
export class UpdateShiftInput {
  @Field(() => String, { nullable: true })
  startTime?: string;

  @Field(() => String, { nullable: true })
  endTime?: string;

  @Field(() => ID, { nullable: true })
  roleId?: string;

  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsHourlyWage(MAX_HOURLY_WAGE)
  hourlyWage?: number;

  @Field(() => [ShiftBreakInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(MAX_BREAKS)
  @ValidateNested({ each: true })
  breaks?: ShiftBreakInput[];
}

@ArgsType()
export class ShiftListArgs {
  @Field({ description: "First local day, YYYY-MM-DD" })
  startDate: string;

  @Field({ description: "Last local day (inclusive), YYYY-MM-DD; at most 366 days after startDate" })
  endDate: string;

  @Field(() => ID, { nullable: true })
  locationId?: string;

  @Field(() => ID, { nullable: true })
  employeeId?: string;
}

@ObjectType({ simpleResolvers: true, description: "A break taken during a shift; times are the location's local time with offset" })
export class ShiftBreak {
  @Field(() => ID)
  id: string;

  @Field()
  startTime: string;

  @Field(() => String, { nullable: true, description: "Null while the break is still running" })
  endTime: string | null;

  @Field(() => ID, { nullable: true, description: "The break type it was taken as" })
  typeId: string | null;

  @Field()
  paid: boolean;

  @Field()
  name: string;

  @Field()
  mandatory: boolean;

  @Field(() => Int)
  frequencyMinutes: number;

  @Field(() => Int, { description: "The break's length as its type sets it, in minutes" })
  durationInSettingsMinutes: number;
}

@ObjectType({ simpleResolvers: true, description: "A shift (timesheet entry). Durations are whole minutes; breaks count only inside the shift" })
export class Shift {
  @Field(() => ID)
  id: string;

  /** The staff member's id, under the field's own name: a renamed property would cost a resolver call per shift. */
  @Field(() => ID)
  employeeId: string;

  @Field(() => ID)
  locationId: string;

  @Field(() => ID)
  roleId: string;

  @Field({ description: "Local time of the location with its offset: 2026-03-02T09:00:00.000-05:00" })
  startTime: string;

  @Field(() => String, { nullable: true, description: "Null while the shift is open (clocked in)" })
  endTime: string | null;

  @Field(() => [ShiftBreak])
  breaks: ShiftBreak[];

  @Field(() => Float)
  hourlyWage: number;

  @Field(() => Int, { description: "Minutes of paid breaks inside the shift" })
  totalPaidBreaks: number;

  @Field(() => Int, { description: "Minutes of unpaid breaks inside the shift" })
  totalUnpaidBreaks: number;

  @Field(() => Int, { description: "Minutes from start to end (an open shift counts up to now)" })
  duration: number;

  @Field(() => Int, { description: "duration − totalUnpaidBreaks" })
  payableDuration: number;

  @Field(() => Int, { description: "Minutes east of UTC at the start of the shift" })
  utcOffset: number;

  @Field({ description: "The location's IANA time zone" })
  timezone: string;

  @Field()
  utcStartTime: string;

  @Field(() => String, { nullable: true })
  utcEndTime: string | null;

  @Field({ description: "The shift starts on a day locked for payroll: it cannot be changed or deleted" })
  locked: boolean;

  @Field({ description: "True while the shift is open" })
  active: boolean;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;

  @Field(() => Date, { nullable: true })
  deletedAt: Date | null;
}

@ObjectType({ simpleResolvers: true, description: "Sums over the listed shifts, in minutes" })
export class ShiftTotals {
  @Field(() => Int)
  duration: number;

  @Field(() => Int)
  totalPaidBreaks: number;

  @Field(() => Int)
  totalUnpaidBreaks: number;

  @Field(() => Int)
  payableDuration: number;
}

@ObjectType({ simpleResolvers: true, description: "Shifts matching the filters, the locked days of the range, and their totals" })
export class ShiftList {
  @Field(() => [Shift])
  shifts: Shift[];

  @Field(() => [String], { description: "Days (YYYY-MM-DD) of the range locked for payroll" })
  lockedDays: string[];

  @Field(() => ShiftTotals)
  totals: ShiftTotals;
}

@ObjectType({ simpleResolvers: true })
export class DeletedShifts {
  @Field(() => Int)
  deleted: number;
}
