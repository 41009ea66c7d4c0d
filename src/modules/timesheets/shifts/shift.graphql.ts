import { ArgsType, Field, Float, ID, InputType, Int } from "type-graphql";
import { ArrayMaxSize, IsOptional, Length, Max, Min, ValidateNested } from "class-validator";
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

@InputType()
export class DayLockInput {
  @Field(() => ID)
  locationId: string;

  @Field({ description: "YYYY-MM-DD, the location's local day" })
  date: string;
}
