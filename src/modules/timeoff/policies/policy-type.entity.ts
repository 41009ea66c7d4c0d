import { Field, ObjectType } from "type-graphql";
import { Column, Entity } from "typeorm";
import { TenantRecord } from "../../../common/entity-columns";

/** The kinds of time off; each organization starts with one policy type of each. */
export const POLICY_TYPE_KINDS = ["Vacation", "Sick", "Personal", "Bereavement", "Holiday", "Unpaid", "Other"] as const;

@ObjectType({ simpleResolvers: true, description: "A kind of time off (Vacation, Sick, …) that policies belong to" })
@Entity("time_off_policy_types")
export class TimeOffPolicyType extends TenantRecord {
  @Field()
  @Column({ type: "text" })
  name: string;

  @Field({ description: "Vacation, Sick, Personal, Bereavement, Holiday, Unpaid or Other" })
  @Column({ type: "text" })
  type: string;
}
