import { ArrayMaxSize, IsBoolean, IsIn, IsOptional, Length, Max, Min, ValidateNested } from "../../../common/input-checks";
import { Field, Float, ID, InputType } from "type-graphql";
import { EmployeeInput } from "./employee-ref";
import { DefaultSettings, LimitSettings, MAX_POLICY_HOURS, POLICY_UNITS } from "./policy.entity";
import { AtMostDecimals, NullRefused, NoControlCharacters } from "../../../common/validation";

/** One worker's line in a policy body: include, exclude, or set the balance (an adjustment in the ledger). */
@InputType()
export class WorkerPolicyInput {
  @Field(() => EmployeeInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  employee?: EmployeeInput | null;

  @Field(() => ID, { nullable: true, description: "The staff member, instead of employee" })
  @IsOptional()
  workerId?: string | null;

  @Field(() => Float, { nullable: true, description: "The balance to set, in hours (at most 6 decimals); the difference is recorded as an adjustment" })
  @IsOptional()
  @AtMostDecimals(6)
  @Min(-MAX_POLICY_HOURS)
  @Max(MAX_POLICY_HOURS)
  hoursBalance?: number | null;

  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isIncluded?: boolean | null;
}

@InputType()
abstract class PolicyFields {
  @Field(() => ID, { nullable: true })
  @IsOptional()
  locationId?: string | null;

  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  paid?: boolean;

  @Field(() => String, { nullable: true, description: "hours or days" })
  @IsOptional()
  @IsIn(POLICY_UNITS)
  units?: string;

  @Field(() => LimitSettings, { nullable: true })
  @IsOptional()
  @ValidateNested()
  limitSettings?: LimitSettings;

  @Field(() => DefaultSettings, { nullable: true })
  @IsOptional()
  @ValidateNested()
  defaultSettings?: DefaultSettings | null;

  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  requiresApproval?: boolean;

  @Field(() => Float, { nullable: true, description: "Null: no limit" })
  @IsOptional()
  @Min(0)
  @Max(MAX_POLICY_HOURS)
  carryoverLimit?: number | null;

  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  allowNegativeBalance?: boolean;

  @Field(() => Float, { nullable: true, description: "Hours of a full day; the organization's default when not given" })
  @IsOptional()
  @Min(0.25)
  @Max(24)
  fullDayDuration?: number;

  @Field(() => [WorkerPolicyInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(5000)
  @ValidateNested({ each: true })
  workerPolicies?: WorkerPolicyInput[];
}

@InputType()
export class CreateTimeOffPolicyInput extends PolicyFields {
  @Field()
  @Length(1, 200)
  @NoControlCharacters()
  name: string;

  @Field(() => ID)
  typeId: string;
}

@InputType()
@NullRefused<UpdateTimeOffPolicyInput>(
  "name",
  "typeId",
  "paid",
  "units",
  "limitSettings",
  "requiresApproval",
  "allowNegativeBalance",
  "fullDayDuration",
  "workerPolicies",
)
export class UpdateTimeOffPolicyInput extends PolicyFields {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 200)
  @NoControlCharacters()
  name?: string;

  @Field(() => ID, { nullable: true })
  @IsOptional()
  typeId?: string;
}
