import { ArrayMaxSize, IsBoolean, IsIn, IsInt, IsOptional, Length, Max, MaxLength, Min, ValidateNested } from "../../../common/input-checks";
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from "type-graphql";
import { Connection, PageArgs } from "../../../common/pagination";
import { EmployeeInput } from "../policies/employee-ref";
import { REQUEST_STATUSES, TimeOffRequest } from "./request.entity";
import { NullRefused } from "../../../common/validation";

@InputType()
export class DayHoursInput {
  @Field({ description: "YYYY-MM-DD, a day of the request in its time zone" })
  date: string;

  @Field(() => Float)
  @Min(0)
  @Max(24)
  hours: number;
}

@ObjectType({ simpleResolvers: true })
export class DayHoursView {
  @Field()
  date: string;

  @Field(() => Float, { description: "Rounded to 2 decimals" })
  hours: number;
}

@InputType()
abstract class RequestFields {
  @Field(() => ID, { nullable: true })
  @IsOptional()
  locationId?: string | null;

  @Field(() => EmployeeInput, { nullable: true, description: "The worker, as the HR system names them (or give workerId)" })
  @IsOptional()
  @ValidateNested()
  employee?: EmployeeInput | null;

  @Field(() => ID, { nullable: true, description: "The worker; a worker filing for themselves may leave it out" })
  @IsOptional()
  workerId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(5000)
  note?: string | null;

  @Field(() => [DayHoursInput], { nullable: true, description: "Hours off per day; by default full days (all-day) or the hours of the range" })
  @IsOptional()
  @ArrayMaxSize(366)
  @ValidateNested({ each: true })
  hourConfiguration?: DayHoursInput[] | null;

  @Field(() => String, { nullable: true, description: "IANA zone of the request; by default the location's, else the organization's" })
  @IsOptional()
  @Length(1, 64)
  timezone?: string | null;

  @Field(() => Int, { nullable: true, description: "If given, must be the zone's offset at startTime (minutes east of UTC)" })
  @IsOptional()
  @IsInt()
  @Min(-1440)
  @Max(1440)
  utcOffset?: number | null;

  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isAllDay?: boolean | null;
}

@InputType()
export class CreateTimeOffRequestInput extends RequestFields {
  @Field(() => ID)
  policyId: string;

  @Field()
  startTime: string;

  @Field()
  endTime: string;
}

/** The PUT body (spec 2.1a): fields left out keep their values. */
@InputType()
@NullRefused<UpdateTimeOffRequestInput>("policyId", "startTime", "endTime")
export class UpdateTimeOffRequestInput extends RequestFields {
  @Field(() => ID, { nullable: true, description: "If given, must be the request's id" })
  @IsOptional()
  id?: string | null;

  @Field(() => ID, { nullable: true })
  @IsOptional()
  policyId?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  startTime?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  endTime?: string;
}

@InputType()
export class DeclineTimeOffRequestInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(2000)
  reason?: string | null;
}

@ArgsType()
export class TimeOffRequestFilterArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: "pending, approved, declined or cancelled" })
  @IsOptional()
  @IsIn(REQUEST_STATUSES)
  status?: string;

  @Field(() => ID, { nullable: true })
  workerId?: string;

  @Field(() => ID, { nullable: true })
  policyId?: string;
}

@ArgsType()
export class ApprovedTimeOffArgs extends PageArgs {
  @Field(() => ID, { nullable: true })
  workerId?: string;

  @Field(() => String, { nullable: true, description: "Time offs ending after this instant (a timestamp, or a date in the organization's zone)" })
  startTime?: string;

  @Field(() => String, { nullable: true, description: "Time offs starting before this instant (a timestamp, or a date: the end of that day)" })
  endTime?: string;
}

@ObjectType({ simpleResolvers: true })
export class TimeOffRequestConnection extends Connection(TimeOffRequest) {}
