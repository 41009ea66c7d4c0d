import { Field, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { Column, Entity } from "typeorm";
import { TenantRecord } from "../../../common/entity-columns";
import { AvailabilityKind, AvailabilityStatus, formatWallTime, Weekday } from "./availability-rule.rules";

export enum AvailabilityKindValue {
  UNAVAILABLE = "UNAVAILABLE",
  PREFER_ON = "PREFER_ON",
  PREFER_OFF = "PREFER_OFF",
}
registerEnumType(AvailabilityKindValue, {
  name: "AvailabilityKind",
  description: "UNAVAILABLE: never scheduled there; PREFER_ON: would like to work it; PREFER_OFF: would rather not",
});

export enum AvailabilityStatusValue {
  PENDING = "PENDING",
  APPROVED = "APPROVED",
  DECLINED = "DECLINED",
}
registerEnumType(AvailabilityStatusValue, { name: "AvailabilityStatus", description: "Only APPROVED rules count" });

export enum WeekdayValue {
  MON = "MON",
  TUE = "TUE",
  WED = "WED",
  THU = "THU",
  FRI = "FRI",
  SAT = "SAT",
  SUN = "SUN",
}
registerEnumType(WeekdayValue, { name: "WeekdayCode", description: "A weekday as rules name it: MON … SUN" });

@ObjectType({
  simpleResolvers: true,
  description: "When a staff member cannot or would rather (not) work: one day or weekly, the whole day or a window of local time",
})
@Entity("availability_rules")
export class AvailabilityRule extends TenantRecord {
  @Field(() => ID)
  @Column({ name: "worker_id", type: "uuid" })
  staffId: string;

  @Field(() => AvailabilityKindValue)
  @Column({ type: "text" })
  kind: AvailabilityKind;

  @Field(() => String, { nullable: true, description: "The one day (YYYY-MM-DD) of a one-day rule" })
  @Column({ type: "date", nullable: true })
  date: string | null;

  @Field(() => [WeekdayValue], { nullable: true, description: "The weekdays of a weekly rule" })
  @Column({ type: "text", array: true, nullable: true })
  weekdays: Weekday[] | null;

  @Column({ name: "start_minute", type: "smallint", nullable: true })
  startMinute: number | null;

  @Column({ name: "end_minute", type: "smallint", nullable: true })
  endMinute: number | null;

  @Field(() => String, { nullable: true, description: "Local wall time HH:MM the window starts; null: the whole day" })
  get startTime(): string | null {
    return this.startMinute === null ? null : formatWallTime(this.startMinute);
  }

  @Field(() => String, { nullable: true, description: "Local wall time HH:MM the window ends; earlier than startTime: the next day" })
  get endTime(): string | null {
    return this.endMinute === null ? null : formatWallTime(this.endMinute);
  }

  @Field(() => ID, { nullable: true, description: "A preference narrowed to one shift template" })
  @Column({ name: "template_id", type: "uuid", nullable: true })
  templateId: string | null;

  @Field(() => Int, { description: "What missing this preference costs the generator (1–100)" })
  @Column({ type: "integer" })
  weight: number;

  @Field(() => String, { nullable: true, description: "First day a weekly rule applies" })
  @Column({ name: "effective_from", type: "date", nullable: true })
  effectiveFrom: string | null;

  @Field(() => String, { nullable: true, description: "Last day a weekly rule applies" })
  @Column({ name: "effective_until", type: "date", nullable: true })
  effectiveUntil: string | null;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  note: string | null;

  @Field(() => AvailabilityStatusValue)
  @Column({ type: "text" })
  status: AvailabilityStatus;

  @Field(() => ID, { nullable: true, description: "Who approved or declined it" })
  @Column({ name: "decided_by", type: "uuid", nullable: true })
  decidedBy: string | null;

  @Field(() => Date, { nullable: true })
  @Column({ name: "decided_at", type: "timestamptz", nullable: true })
  decidedAt: Date | null;

  @Field(() => ID, { nullable: true, description: "Who wrote it (null: an organization-wide key)" })
  @Column({ name: "created_by", type: "uuid", nullable: true })
  createdBy: string | null;
}

@ObjectType({ simpleResolvers: true, description: "How the organization handles availability" })
@Entity("availability_settings")
export class AvailabilitySettings {
  @Field(() => ID)
  @Column({ name: "organization_id", type: "uuid", primary: true })
  organizationId: string;

  @Field({ description: "Rules workers write for themselves count only once a manager approves them (default false)" })
  @Column({ name: "requires_approval", type: "boolean" })
  availabilityRequiresApproval: boolean;
}
