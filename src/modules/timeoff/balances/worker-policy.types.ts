import { Field, Int, ObjectType } from "type-graphql";
import { Connection } from "../../../common/pagination";
import { LedgerEntry, WorkerPolicy } from "./worker-policy.entity";

@ObjectType()
export class WorkerPolicyConnection extends Connection(WorkerPolicy) {}

@ObjectType()
export class LedgerConnection extends Connection(LedgerEntry) {}

@ObjectType()
export class AccrualSummaryView {
  @Field(() => Int)
  workerPolicies: number;

  @Field(() => Int, { description: "Ledger rows added (0 when everything due was there already)" })
  entries: number;
}
