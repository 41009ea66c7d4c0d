import { ArrayMaxSize, IsOptional, Max, MaxLength, Min } from "../../../common/input-checks";
import { ArgsType, Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { NullRefused } from "../../../common/validation";
import { AvailabilityKindValue, AvailabilityStatusValue, WeekdayValue } from "./availability-rule.entity";

@InputType({ description: "A rule: `date` (one day) or `weekdays` (weekly between effectiveFrom and effectiveUntil); no startTime/endTime: the whole day" })
export class CreateAvailabilityRuleInput {
  @Field(() => AvailabilityKindValue)
  kind: AvailabilityKindValue;

  @Field(() => String, { nullable: true, description: "The one day (YYYY-MM-DD)" })
  date?: string | null;

  @Field(() => [WeekdayValue], { nullable: true, description: "Weekdays it repeats on" })
  @IsOptional()
  @ArrayMaxSize(7)
  weekdays?: WeekdayValue[] | null;

  @Field(() => String, { nullable: true, description: "Local wall time HH:MM (24 h)" })
  startTime?: string | null;

  @Field(() => String, { nullable: true, description: "Local wall time HH:MM; earlier than startTime: the next day" })
  endTime?: string | null;

  @Field(() => ID, { nullable: true, description: "A preference for one shift template only" })
  templateId?: string | null;

  @Field(() => Int, { nullable: true, description: "1–100, default 1" })
  @IsOptional()
  @Min(1)
  @Max(100)
  weight?: number;

  @Field(() => String, { nullable: true, description: "First day of a weekly rule (YYYY-MM-DD)" })
  effectiveFrom?: string | null;

  @Field(() => String, { nullable: true, description: "Last day of a weekly rule (YYYY-MM-DD)" })
  effectiveUntil?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(2000)
  note?: string | null;
}

@InputType({ description: "The fields to change; null clears an optional one. A worker's change needs approval again where the organization asks for it" })
@NullRefused<UpdateAvailabilityRuleInput>("kind", "weight")
export class UpdateAvailabilityRuleInput {
  @Field(() => AvailabilityKindValue, { nullable: true })
  kind?: AvailabilityKindValue;

  @Field(() => String, { nullable: true })
  date?: string | null;

  @Field(() => [WeekdayValue], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(7)
  weekdays?: WeekdayValue[] | null;

  @Field(() => String, { nullable: true, description: "null (endTime left out): the whole day" })
  startTime?: string | null;

  @Field(() => String, { nullable: true, description: "null (startTime left out): the whole day" })
  endTime?: string | null;

  @Field(() => ID, { nullable: true })
  templateId?: string | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1)
  @Max(100)
  weight?: number;

  @Field(() => String, { nullable: true })
  effectiveFrom?: string | null;

  @Field(() => String, { nullable: true })
  effectiveUntil?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(2000)
  note?: string | null;
}

@InputType()
@NullRefused<UpdateAvailabilitySettingsInput>("availabilityRequiresApproval")
export class UpdateAvailabilitySettingsInput {
  @Field(() => Boolean, { nullable: true })
  availabilityRequiresApproval?: boolean;
}

@ArgsType()
export class ResolvedAvailabilityArgs {
  @Field()
  startDate: string;

  @Field()
  endDate: string;

  @Field(() => ID, { nullable: true, description: "Staff of this location, in its time zone (else the organization's)" })
  locationId?: string;

  @Field(() => ID, { nullable: true })
  staffId?: string;
}

@ObjectType({ simpleResolvers: true, description: "A stretch of a day a rule or approved time off covers" })
export class AvailabilityWindowView {
  @Field(() => AvailabilityKindValue)
  kind: AvailabilityKindValue;

  @Field({ description: "RULE or TIME_OFF" })
  source: string;

  @Field(() => ID, { description: "The rule or the time-off request" })
  sourceId: string;

  @Field({ description: "Local wall time with its offset" })
  startTime: string;

  @Field()
  endTime: string;

  @Field({ description: "The whole local day" })
  wholeDay: boolean;

  @Field(() => Int)
  weight: number;

  @Field(() => ID, { nullable: true })
  templateId: string | null;
}

@ObjectType({ simpleResolvers: true, description: "One staff member's day: when they cannot work and what they prefer" })
export class StaffDayAvailability {
  @Field(() => ID)
  staffId: string;

  @Field({ description: "Local calendar day" })
  date: string;

  @Field({ description: "False when the whole day is unavailable" })
  available: boolean;

  @Field(() => [AvailabilityWindowView], { description: "UNAVAILABLE rules and approved time off" })
  unavailable: AvailabilityWindowView[];

  @Field(() => [AvailabilityWindowView], { description: "PREFER_ON and PREFER_OFF rules" })
  preferences: AvailabilityWindowView[];
}

@ArgsType()
export class AvailabilityRuleListArgs {
  @Field(() => AvailabilityStatusValue, { nullable: true })
  status?: AvailabilityStatusValue;
}
