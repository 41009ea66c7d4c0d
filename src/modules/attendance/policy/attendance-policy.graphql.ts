import { IsOptional, Max, Min } from "../../../common/input-checks";
import { Field, Float, InputType, Int, ObjectType } from "type-graphql";

@ObjectType({
  simpleResolvers: true,
  description: "When a punch counts as late, early or missing; exceptions are recorded once the organization has saved its policy",
})
export class AttendancePolicy {
  @Field(() => Int, { description: "A clock-in later than the scheduled start by more than this is LATE_IN" })
  lateGraceMinutes: number;

  @Field(() => Int, { description: "A clock-out earlier than the scheduled end by more than this is EARLY_OUT" })
  earlyOutGraceMinutes: number;

  @Field(() => Int, { description: "A scheduled entry without a clock-in this long after its start is NO_SHOW" })
  noShowAfterMinutes: number;

  @Field(() => Int, { description: "An open shift this long past its scheduled end (else its start plus longShiftHours) is MISSED_CLOCK_OUT" })
  missedClockOutAfterMinutes: number;

  @Field(() => Float, { description: "A shift longer than this is LONG_SHIFT" })
  longShiftHours: number;

  @Field({ description: "Whether the organization has saved its policy: exceptions are recorded only then" })
  enabled: boolean;

  @Field(() => Date, { nullable: true })
  updatedAt: Date | null;
}

@InputType({ description: "The attendance policy, replaced whole (a figure left out goes back to its default)" })
export class AttendancePolicyInput {
  @Field(() => Int, { nullable: true, description: "Default 5" })
  @IsOptional()
  @Min(0)
  @Max(1440)
  lateGraceMinutes?: number | null;

  @Field(() => Int, { nullable: true, description: "Default 5" })
  @IsOptional()
  @Min(0)
  @Max(1440)
  earlyOutGraceMinutes?: number | null;

  @Field(() => Int, { nullable: true, description: "Default 30" })
  @IsOptional()
  @Min(1)
  @Max(1440)
  noShowAfterMinutes?: number | null;

  @Field(() => Int, { nullable: true, description: "Default 60" })
  @IsOptional()
  @Min(1)
  @Max(1440)
  missedClockOutAfterMinutes?: number | null;

  @Field(() => Float, { nullable: true, description: "Default 12" })
  @IsOptional()
  @Min(0.25)
  @Max(48)
  longShiftHours?: number | null;
}
