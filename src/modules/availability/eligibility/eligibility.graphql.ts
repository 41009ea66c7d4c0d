import { ArrayMaxSize, IsOptional } from "../../../common/input-checks";
import { Field, Float, ID, InputType, ObjectType } from "type-graphql";

@InputType({ description: "A shift to ask about: a time range and role at a location" })
export class EligibilityInput {
  @Field(() => ID)
  locationId: string;

  @Field(() => ID)
  roleId: string;

  @Field({ description: "Timestamp; without an offset it is the location's wall time" })
  startTime: string;

  @Field()
  endTime: string;

  @Field(() => [ID], { nullable: true, description: "Only these staff members (inactive ones too); default every active one" })
  @IsOptional()
  @ArrayMaxSize(1000)
  staffIds?: string[];

  @Field(() => ID, { nullable: true, description: "The shift's template: preferences naming it apply" })
  templateId?: string;
}

@ObjectType({ simpleResolvers: true, description: "Why a person cannot take a shift (a reason) or what taking it means (a warning)" })
export class EligibilityFindingView {
  @Field({
    description:
      "INACTIVE, ROLE, LOCATION, UNAVAILABLE, TIME_OFF, OVERLAP, PREFER_OFF, NOTICE_WINDOW, or the compliance rule (REST_BETWEEN_SHIFTS, MAX_WEEKLY_HOURS, …)",
  })
  code: string;

  @Field({ description: "What it is, with its figures" })
  message: string;

  @Field(() => ID, { nullable: true, description: "The availability rule, time-off request or entry behind it" })
  sourceId: string | null;

  @Field(() => [ID], { description: "The entries a compliance rule names (the shift asked about is 00000000-0000-0000-0000-000000000000)" })
  entryIds: string[];

  @Field(() => String, { nullable: true })
  citation: string | null;

  @Field(() => Float, { nullable: true, description: "Premium hours it owes" })
  hours: number | null;

  @Field(() => Float, { nullable: true, description: "Premium amount it owes, to the cent" })
  amount: number | null;
}

@ObjectType({ simpleResolvers: true, description: "Pay the law adds for the change" })
export class PremiumView {
  @Field()
  ruleId: string;

  @Field(() => Float)
  hours: number;

  @Field(() => Float)
  amount: number;

  @Field()
  citation: string;
}

@ObjectType({ simpleResolvers: true, description: "Whether one staff member can take the shift, why not, and what it would cost" })
export class StaffEligibilityView {
  @Field(() => ID)
  staffId: string;

  @Field()
  eligible: boolean;

  @Field(() => [EligibilityFindingView], { description: "What makes the person ineligible" })
  reasons: EligibilityFindingView[];

  @Field(() => [EligibilityFindingView], { description: "Preferences and compliance warnings: the person stays eligible" })
  warnings: EligibilityFindingView[];

  @Field(() => [PremiumView])
  premiums: PremiumView[];
}
