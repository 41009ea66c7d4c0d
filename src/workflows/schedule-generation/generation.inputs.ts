import { Field, Float, ID, InputType, Int } from "type-graphql";
import { ArrayMaxSize, IsOptional, Max, Min, ValidateNested } from "../../common/input-checks";
import { GenerationMode } from "./generation.entity";

@InputType()
export class TemplateShiftLimitInput {
  @Field(() => ID)
  templateId: string;

  @Field(() => Int)
  @Min(0)
  @Max(1000)
  max: number;
}

const MAX_MINUTES = 366 * 24 * 60;

@InputType({ description: "Limits over the generated range; each one left out does not apply" })
export class PlanningLimitsInput {
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(0)
  @Max(MAX_MINUTES)
  minMinutes?: number | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(0)
  @Max(MAX_MINUTES)
  maxMinutes?: number | null;

  @Field(() => [TemplateShiftLimitInput], { nullable: true, description: "At most this many shifts of a template (0: never)" })
  @IsOptional()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  maxShifts?: TemplateShiftLimitInput[] | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1)
  @Max(366)
  maxConsecutiveShifts?: number | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1)
  @Max(366)
  minConsecutiveShifts?: number | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1)
  @Max(366)
  minConsecutiveDaysOff?: number | null;

  @Field(() => Int, { nullable: true, description: "Weekends (a Saturday and the Sunday after it) worked, either day counting" })
  @IsOptional()
  @Min(0)
  @Max(53)
  maxWeekends?: number | null;
}

@InputType()
export class StaffLimitsInput extends PlanningLimitsInput {
  @Field(() => ID)
  staffId: string;
}

@InputType()
export class GenerateScheduleInput {
  @Field({ description: "First day (YYYY-MM-DD) to fill" })
  startDate: string;

  @Field({ description: "Last day (YYYY-MM-DD), inclusive" })
  endDate: string;

  @Field(() => GenerationMode, { nullable: true, description: "FILL (default) keeps the range's drafts and adds; REPLACE_DRAFTS replaces them" })
  mode?: GenerationMode | null;

  @Field(() => Int, { nullable: true, description: "Seconds the search may run (default 30, at most 600)" })
  @IsOptional()
  @Min(1)
  @Max(600)
  timeLimitSeconds?: number | null;

  @Field(() => Int, { nullable: true, description: "Seed of the search: the same seed and data give the same moves" })
  @IsOptional()
  @Min(0)
  @Max(2147483647)
  seed?: number | null;

  @Field(() => [ID], { nullable: true, description: "Only these staff members (default: every active one of the location with a template's role)" })
  @IsOptional()
  @ArrayMaxSize(2000)
  staffIds?: string[] | null;

  @Field(() => PlanningLimitsInput, { nullable: true, description: "Limits of everyone without limits of their own" })
  @IsOptional()
  @ValidateNested()
  defaultLimits?: PlanningLimitsInput | null;

  @Field(() => [StaffLimitsInput], { nullable: true, description: "Limits per staff member (replacing the default ones for them)" })
  @IsOptional()
  @ArrayMaxSize(2000)
  @ValidateNested({ each: true })
  limits?: StaffLimitsInput[] | null;

  @Field(() => Float, { nullable: true, description: "Weight of labor cost (wages of the shifts) in the objective; default 0" })
  @IsOptional()
  @Min(0)
  @Max(1000)
  costWeight?: number | null;

  @Field(() => Boolean, {
    nullable: true,
    description: "Allow what the compliance profile only warns of but prices (short rest, late notice); their premiums then count as cost",
  })
  allowPremiums?: boolean | null;
}
