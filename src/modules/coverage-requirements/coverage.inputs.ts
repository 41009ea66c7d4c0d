import { ArgsType, Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { ArrayMaxSize, IsOptional, Max, Min, ValidateNested } from "../../common/input-checks";

export const MAX_COVERAGE_WEIGHT = 100_000;

@InputType()
export class CoverageRequirementInput {
  @Field({ description: "The day, YYYY-MM-DD (the location's calendar)" })
  date: string;

  @Field(() => ID)
  templateId: string;

  @Field(() => Int, { description: "People needed" })
  @Min(0)
  @Max(1000)
  count: number;

  @Field(() => Int, { nullable: true, description: "Cost of each person missing (default 1)" })
  @IsOptional()
  @Min(0)
  @Max(MAX_COVERAGE_WEIGHT)
  underWeight?: number | null;

  @Field(() => Int, { nullable: true, description: "Cost of each person too many (default 0)" })
  @IsOptional()
  @Min(0)
  @Max(MAX_COVERAGE_WEIGHT)
  overWeight?: number | null;
}

@InputType()
export class ReplaceCoverageInput {
  @Field({ description: "First day (YYYY-MM-DD) whose requirements are replaced" })
  startDate: string;

  @Field({ description: "Last day (YYYY-MM-DD), inclusive" })
  endDate: string;

  @Field(() => [CoverageRequirementInput], { description: "The range's requirements: one per day and template at most" })
  @ArrayMaxSize(20000)
  @ValidateNested({ each: true })
  requirements: CoverageRequirementInput[];
}

@ArgsType()
export class CoverageArgs {
  @Field(() => ID)
  locationId: string;

  @Field(() => String, { nullable: true, description: "First day (YYYY-MM-DD); the location's today by default" })
  startDate?: string;

  @Field(() => String, { nullable: true, description: "Last day (YYYY-MM-DD), inclusive; six days after startDate by default" })
  endDate?: string;
}

@ObjectType({ simpleResolvers: true, description: "A coverage requirement with what the planned schedule gives it" })
export class CoverageLine {
  @Field()
  date: string;

  @Field(() => ID)
  templateId: string;

  @Field(() => Int, { description: "People needed" })
  count: number;

  @Field(() => Int)
  underWeight: number;

  @Field(() => Int)
  overWeight: number;

  @Field(() => Int, { description: "People planned on it: published entries and drafts of that template and day, as publishing would leave them" })
  assigned: number;

  @Field(() => Int, { description: "People still needed: count − assigned, at least 0" })
  missing: number;
}
