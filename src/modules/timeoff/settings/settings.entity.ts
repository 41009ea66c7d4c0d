import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { Column, Entity, PrimaryColumn } from "typeorm";
import { numericColumn, Timestamps } from "../../../common/entity-columns";

@ObjectType({ simpleResolvers: true, description: "How an organization handles time off" })
@Entity("time_off_settings")
export class TimeOffSettings extends Timestamps {
  @Field(() => ID)
  @PrimaryColumn({ name: "organization_id", type: "uuid" })
  organizationId: string;

  @Field(() => Float, { description: "Hours of a full day off for new policies" })
  @Column({ name: "default_full_day_hours", type: "numeric", transformer: numericColumn })
  defaultFullDayHours: number;

  @Field({ description: "First day of the week (Monday … Sunday); weekly accruals fall on it unless the policy names a day" })
  @Column({ name: "week_start", type: "text" })
  weekStart: string;

  @Field({ description: "Whether staff may file requests that start on a past day" })
  @Column({ name: "allow_past_requests", type: "boolean" })
  allowPastRequests: boolean;

  @Field(() => Int, { description: "Days between filing and the first day off, for staff filing for themselves" })
  @Column({ name: "minimum_notice_days", type: "integer" })
  minimumNoticeDays: number;

  @Field({ description: "Whether workers see their balances" })
  @Column({ name: "workers_see_balances", type: "boolean" })
  workersSeeBalances: boolean;
}
