import { ArgsType, Field, ID } from "type-graphql";
import { PageArgs } from "../../common/pagination";

@ArgsType()
export class WorkerPolicyFilterArgs extends PageArgs {
  @Field(() => ID, { nullable: true })
  policyId?: string;

  @Field(() => ID, { nullable: true })
  workerId?: string;
}
