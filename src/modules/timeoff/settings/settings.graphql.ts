import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min } from "../../../common/input-checks";
import { Field, Float, InputType, Int } from "type-graphql";
import { WEEKDAYS } from "../policies/policy.entity";
import { NullRefused } from "../../../common/validation";

@InputType()
@NullRefused<UpdateTimeOffSettingsInput>("defaultFullDayHours", "weekStart", "allowPastRequests", "minimumNoticeDays", "workersSeeBalances")
export class UpdateTimeOffSettingsInput {
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @Min(0.25)
  @Max(24)
  defaultFullDayHours?: number;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsIn(WEEKDAYS)
  weekStart?: string;

  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  allowPastRequests?: boolean;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(365)
  minimumNoticeDays?: number;

  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  workersSeeBalances?: boolean;
}
