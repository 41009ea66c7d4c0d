import { Field, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { Column, Entity } from "typeorm";
import { TenantRecord } from "../../common/entity-columns";
import { PlannedRecord } from "../schedules";

export enum PreferenceValue {
  PREFERRED = "PREFERRED",
  AVAILABLE = "AVAILABLE",
  UNAVAILABLE = "UNAVAILABLE",
}
registerEnumType(PreferenceValue, { name: "PreferenceValue", description: "How much a worker wants an open shift" });

export enum PreferenceStatus {
  PENDING = "PENDING",
  ACCEPTED = "ACCEPTED",
  DECLINED = "DECLINED",
  RETRACTED = "RETRACTED",
  REMOVED = "REMOVED",
}
registerEnumType(PreferenceStatus, {
  name: "PreferenceStatus",
  description: "PENDING until a manager accepts (ACCEPTED) or declines (DECLINED) it, the worker retracts it (RETRACTED) or a manager removes it (REMOVED)",
});

@ObjectType({ simpleResolvers: true, description: "A shift nobody has yet, which workers claim or state preferences for" })
@Entity("open_shifts")
export class OpenShift extends PlannedRecord {
  @Field(() => ID)
  @Column({ name: "location_id", type: "uuid" })
  locationId: string;

  @Field(() => ID)
  @Column({ name: "role_id", type: "uuid" })
  roleId: string;

  @Column({ name: "start_time", type: "timestamptz" })
  startsAt: Date;

  @Column({ name: "end_time", type: "timestamptz" })
  endsAt: Date;

  @Field(() => [String], { name: "breaks", simple: false, description: "Ids of the location's break types planned for the shift" })
  @Column({ name: "break_type_ids", type: "uuid", array: true })
  breakTypeIds: string[];

  @Field(() => Int)
  @Column({ name: "staff_count_required", type: "integer" })
  staffCountRequired: number;

  @Field(() => Int, { description: "Workers accepted so far" })
  @Column({ name: "accepted_count", type: "integer" })
  acceptedCount: number;

  @Field({ description: "Claims wait for a manager's acceptance; without it the first claims are accepted at once" })
  @Column({ name: "require_approval", type: "boolean" })
  requireApproval: boolean;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  note: string | null;

  @Field(() => Date, { nullable: true })
  @Column({ name: "published_at", type: "timestamptz", nullable: true })
  publishedAt: Date | null;

  @Field(() => ID, { description: "The organization (the same as organizationId)" })
  get tenantId(): string {
    return this.organizationId;
  }

  @Field({ description: "Start, local wall time of the location with its offset" })
  get startDate(): string {
    return this.local(this.startsAt);
  }

  @Field({ description: "End, local wall time of the location with its offset" })
  get endDate(): string {
    return this.local(this.endsAt);
  }

  @Field({ description: "Published with the schedule: workers see it and may claim it" })
  get isPublished(): boolean {
    return this.publishedAt !== null;
  }

  @Field({ description: "Not yet published" })
  get isDraft(): boolean {
    return this.publishedAt === null;
  }

  @Field({ description: "As many workers accepted as required" })
  get isFullyClaimed(): boolean {
    return this.acceptedCount >= this.staffCountRequired;
  }
}

@ObjectType({ simpleResolvers: true, description: "A worker's claim of, or preference for, an open shift" })
@Entity("open_shift_preferences")
export class OpenShiftPreference extends TenantRecord {
  @Field(() => ID)
  @Column({ name: "open_shift_id", type: "uuid" })
  openShiftId: string;

  @Field(() => ID, { name: "workerId", simple: false })
  @Column({ name: "worker_id", type: "uuid" })
  staffId: string;

  @Field(() => PreferenceValue)
  @Column({ type: "text" })
  preference: PreferenceValue;

  @Field(() => PreferenceStatus)
  @Column({ type: "text" })
  status: PreferenceStatus;

  @Field({ description: "Stated on an open shift not yet published; becomes a plain preference when it is" })
  @Column({ name: "is_draft", type: "boolean" })
  isDraft: boolean;

  @Field(() => ID, { nullable: true, description: "The schedule entry made for the worker when the preference was accepted" })
  @Column({ name: "schedule_entry_id", type: "uuid", nullable: true })
  scheduleShiftId: string | null;
}

@ObjectType({ simpleResolvers: true, description: "The worker a preference belongs to" })
export class PreferenceWorker {
  @Field(() => ID)
  id: string;

  @Field(() => String, { nullable: true, description: "The worker's id in the HR or payroll system" })
  externalId: string | null;

  @Field()
  name: string;
}

@ObjectType({ simpleResolvers: true, description: "What a draft preference becomes when its open shift is published" })
export class PreferenceDraft {
  @Field(() => PreferenceValue)
  preference: PreferenceValue;

  @Field(() => PreferenceStatus)
  status: PreferenceStatus;
}
