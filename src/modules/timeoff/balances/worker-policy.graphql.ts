import { IsBoolean, IsNumber, IsOptional, Length, Max, Min } from "../../../common/input-checks";
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from "type-graphql";
import { AtMostDecimals, NullRefused } from "../../../common/validation";
import { MAX_POLICY_HOURS } from "../policies/policy.entity";
import { Connection, PageArgs } from "../../../common/pagination";
import { LedgerEntry, WorkerPolicy } from "./worker-policy.entity";

/** Setting one worker's balance: the difference to the ledger's sum becomes an adjustment row. */
@InputType()
export class SetTimeOffBalanceInput {
  @Field(() => Float, { description: "The balance to set, in hours (at most 6 decimals)" })
  @IsNumber({ message: "hoursBalance must be a number" })
  @AtMostDecimals(6)
  @Min(-MAX_POLICY_HOURS)
  @Max(MAX_POLICY_HOURS)
  hoursBalance: number;

  @Field(() => String, { nullable: true, description: 'Why, kept on the ledger row (default: "Balance set to … h")' })
  @IsOptional()
  @Length(1, 500)
  note?: string | null;
}

/** A change of one worker policy: include or exclude the worker, set the balance. */
@InputType()
@NullRefused<UpdateWorkerPolicyInput>("hoursBalance", "isIncluded")
export class UpdateWorkerPolicyInput {
  @Field(() => Float, { nullable: true, description: "The balance to set, in hours (at most 6 decimals); the worker must be (or become) included" })
  @IsOptional()
  @IsNumber({ message: "hoursBalance must be a number" })
  @AtMostDecimals(6)
  @Min(-MAX_POLICY_HOURS)
  @Max(MAX_POLICY_HOURS)
  hoursBalance?: number | null;

  @Field(() => Boolean, { nullable: true, description: "Include or exclude the worker by hand; defaultSettings no longer move them" })
  @IsOptional()
  @IsBoolean()
  isIncluded?: boolean | null;

  @Field(() => String, { nullable: true, description: "Why the balance changed, kept on the ledger row" })
  @IsOptional()
  @Length(1, 500)
  note?: string | null;
}

@ArgsType()
export class WorkerPolicyFilterArgs extends PageArgs {
  @Field(() => ID, { nullable: true })
  policyId?: string;

  @Field(() => ID, { nullable: true })
  workerId?: string;
}

@ObjectType({ simpleResolvers: true })
export class WorkerPolicyConnection extends Connection(WorkerPolicy) {}

@ObjectType({ simpleResolvers: true })
export class LedgerConnection extends Connection(LedgerEntry) {}

@ObjectType({ simpleResolvers: true })
export class AccrualSummaryView {
  @Field(() => Int)
  workerPolicies: number;

  @Field(() => Int, { description: "Ledger rows added (0 when everything due was there already)" })
  entries: number;
}
