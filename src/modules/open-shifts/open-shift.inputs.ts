import { ArgsType, Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { ArrayMaxSize, ArrayMinSize, IsOptional, Max, MaxLength, Min } from "../../common/input-checks";
import { Connection, PageArgs } from "../../common/pagination";
import { OpenShift, OpenShiftPreference, PreferenceValue } from "./open-shift.entity";
import { NullRefused } from "../../common/validation";

@InputType()
export class CreateOpenShiftInput {
  @Field(() => ID)
  roleId: string;

  @Field({ description: "Start: a timestamp as for a shift's startTime" })
  startDate: string;

  @Field({ description: "End: a timestamp as for a shift's endTime" })
  endDate: string;

  @Field(() => Int)
  @Min(1)
  @Max(1000)
  staffCountRequired: number;

  @Field(() => Boolean, { nullable: true, description: "Default true" })
  requireApproval?: boolean;

  @Field(() => [ID], { nullable: true, description: "Ids of the location's break types" })
  @IsOptional()
  @ArrayMaxSize(20)
  breaks?: string[];

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(2000)
  note?: string | null;
}

@InputType()
@NullRefused<UpdateOpenShiftInput>("roleId", "startDate", "endDate", "staffCountRequired", "requireApproval", "breaks")
export class UpdateOpenShiftInput {
  @Field(() => ID, { nullable: true })
  roleId?: string;

  @Field(() => String, { nullable: true })
  startDate?: string;

  @Field(() => String, { nullable: true })
  endDate?: string;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1)
  @Max(1000)
  staffCountRequired?: number;

  @Field(() => Boolean, { nullable: true })
  requireApproval?: boolean;

  @Field(() => [ID], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(20)
  breaks?: string[];

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(2000)
  note?: string | null;
}

@ArgsType()
export class OpenShiftListArgs extends PageArgs {
  @Field(() => ID)
  locationId: string;

  @Field(() => String, { nullable: true, description: "First day (YYYY-MM-DD) of open shifts that start in the range" })
  startDate?: string;

  @Field(() => String, { nullable: true, description: "Last day (YYYY-MM-DD), inclusive" })
  endDate?: string;
}

@InputType({ description: "Whose claim or preference: the caller's own unless a manager names the worker" })
export class WorkerChoiceInput {
  @Field(() => ID, { nullable: true })
  workerId?: string;
}

@InputType()
export class ClaimOpenShiftInput extends WorkerChoiceInput {
  @Field(() => PreferenceValue, { nullable: true, description: "PREFERRED unless given" })
  preference?: PreferenceValue;
}

@InputType()
export class CreatePreferenceInput extends WorkerChoiceInput {
  @Field(() => PreferenceValue)
  preference: PreferenceValue;
}

@InputType()
export class UpdatePreferenceInput {
  @Field(() => PreferenceValue)
  preference: PreferenceValue;
}

@InputType()
export class BulkAssignInput {
  @Field(() => [ID], { description: "Preferences to accept, each on its own: one refused does not undo the others" })
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  preferenceIds: string[];
}

@ObjectType({ simpleResolvers: true })
export class ItemError {
  @Field()
  code: string;

  @Field()
  message: string;

  @Field(() => Int)
  status: number;
}

@ObjectType({ simpleResolvers: true, description: "The outcome of one preference of a bulk assignment" })
export class BulkAssignItem {
  @Field(() => ID)
  preferenceId: string;

  @Field({ description: "True when the preference was accepted" })
  ok: boolean;

  @Field(() => OpenShiftPreference, { nullable: true })
  preference: OpenShiftPreference | null;

  @Field(() => ItemError, { nullable: true })
  error: ItemError | null;
}

@ObjectType({ simpleResolvers: true })
export class BulkAssignResult {
  @Field(() => [BulkAssignItem])
  results: BulkAssignItem[];
}

@ObjectType({ simpleResolvers: true })
export class OpenShiftConnection extends Connection(OpenShift) {}
