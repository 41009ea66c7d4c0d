import { Field, ID, ObjectType } from "type-graphql";
import { Column, Entity } from "typeorm";
import { numericColumn, TenantRecord } from "../../../common/entity-columns";

export const REQUEST_STATUSES = ["pending", "approved", "declined", "cancelled"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** Hours off on one calendar day of a request. */
export interface DayHours {
  date: string;
  hours: number;
}

@ObjectType({ simpleResolvers: true, description: "A worker's request for time off against a policy" })
@Entity("time_off_requests")
export class TimeOffRequest extends TenantRecord {
  @Field(() => ID, { name: "workerId", simple: false })
  @Column({ name: "worker_id", type: "uuid" })
  staffId: string;

  @Field(() => ID)
  @Column({ name: "policy_id", type: "uuid" })
  policyId: string;

  @Field(() => ID, { nullable: true })
  @Column({ name: "location_id", type: "uuid", nullable: true })
  locationId: string | null;

  @Field({ description: "UTC, with milliseconds" })
  @Column({ name: "start_time", type: "timestamptz" })
  startTime: Date;

  @Field({ description: "UTC, with milliseconds" })
  @Column({ name: "end_time", type: "timestamptz" })
  endTime: Date;

  @Field({ description: "pending, approved, declined or cancelled" })
  @Column({ type: "text" })
  status: RequestStatus;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  note: string | null;

  @Field()
  @Column({ name: "is_all_day", type: "boolean" })
  isAllDay: boolean;

  @Field({ description: "IANA time zone the days of the request are counted in" })
  @Column({ type: "text" })
  timezone: string;

  @Column({ name: "hour_configuration", type: "jsonb" })
  hourConfiguration: DayHours[];

  @Column({ name: "total_hours", type: "numeric", transformer: numericColumn })
  totalHours: number;

  @Field()
  @Column({ name: "submitted_at", type: "timestamptz" })
  submittedAt: Date;

  @Field(() => ID, { nullable: true, description: "The staff member who filed it; null for an organization token" })
  @Column({ name: "submitted_by", type: "uuid", nullable: true })
  submittedBy: string | null;

  @Field(() => Date, { nullable: true, description: "When it was approved or declined" })
  @Column({ name: "decided_at", type: "timestamptz", nullable: true })
  decidedAt: Date | null;

  @Field(() => ID, { nullable: true })
  @Column({ name: "decided_by", type: "uuid", nullable: true })
  decidedBy: string | null;

  @Field(() => String, { nullable: true })
  @Column({ name: "decline_reason", type: "text", nullable: true })
  declineReason: string | null;

  @Field(() => Date, { nullable: true })
  @Column({ name: "cancelled_at", type: "timestamptz", nullable: true })
  cancelledAt: Date | null;
}
