import { IsOptional, Max, Min } from "../../../common/input-checks";
import { Field, Float, InputType } from "type-graphql";
import { NullRefused } from "../../../common/validation";
import { Weekday } from "../../../common/weekday";

@InputType()
@NullRefused<UpdateTimesheetSettingsInput>("weeklyOvertimeHours", "overtimeRate", "weekStart")
export class UpdateTimesheetSettingsInput {
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @Min(1)
  @Max(168)
  weeklyOvertimeHours?: number;

  @Field(() => Float, { nullable: true, description: "null switches the daily rule off" })
  @IsOptional()
  @Min(1)
  @Max(24)
  dailyOvertimeHours?: number | null;

  @Field(() => Float, { nullable: true })
  @IsOptional()
  @Min(1)
  @Max(10)
  overtimeRate?: number;

  @Field(() => Weekday, { nullable: true })
  weekStart?: Weekday;
}
