import { Field, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { Column, Entity, PrimaryGeneratedColumn } from "typeorm";
import { minutesBetween } from "../../common/time";
import type { RecordedChangePay } from "../compliance";
import { PlannedRecord } from "./planned-time";

export enum DraftAction {
  ADD = "ADD",
  CHANGE = "CHANGE",
  REMOVE = "REMOVE",
}
registerEnumType(DraftAction, {
  name: "DraftAction",
  description: "What publishing a draft does: add a new entry, change a published entry, or remove one",
});

/** The columns of a planned shift of one worker, published or draft. */
@ObjectType({ simpleResolvers: true })
export abstract class WorkerShiftPlan extends PlannedRecord {
  @Field(() => ID)
  @Column({ name: "location_id", type: "uuid" })
  locationId: string;

  @Field(() => ID, { name: "workerId", simple: false })
  @Column({ name: "worker_id", type: "uuid" })
  staffId: string;

  @Field(() => ID)
  @Column({ name: "role_id", type: "uuid" })
  roleId: string;

  @Column({ name: "start_time", type: "timestamptz" })
  startsAt: Date;

  @Column({ name: "end_time", type: "timestamptz" })
  endsAt: Date;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  note: string | null;

  @Field(() => ID, { nullable: true, description: "The shift template it was made from" })
  @Column({ name: "template_id", type: "uuid", nullable: true })
  templateId: string | null;

  @Field({ description: "Local wall time of the location, with its offset" })
  get startTime(): string {
    return this.local(this.startsAt);
  }

  @Field({ description: "Local wall time of the location, with its offset" })
  get endTime(): string {
    return this.local(this.endsAt);
  }

  @Field(() => Int, { description: "Minutes from start to end" })
  get duration(): number {
    return minutesBetween(this.startsAt, this.endsAt);
  }
}

@ObjectType({ simpleResolvers: true, description: "A published planned shift of one worker at a location" })
@Entity("schedule_entries")
export class ScheduleEntry extends WorkerShiftPlan {
  @Field(() => ID, { nullable: true, description: "The open shift this entry was claimed or assigned from" })
  @Column({ name: "open_shift_id", type: "uuid", nullable: true })
  openShiftId: string | null;

  @Column({ name: "deleted_at", type: "timestamptz", nullable: true })
  deletedAt: Date | null;

  /** Set only on the answer of the change that recorded it; never stored with the entry. */
  recordedChangePay?: RecordedChangePay[];
}

@ObjectType({ simpleResolvers: true, description: "An unpublished change to a location's schedule: a new entry, a change to a published one, or its removal" })
@Entity("schedule_drafts")
export class ScheduleDraft extends WorkerShiftPlan {
  @Field(() => DraftAction)
  @Column({ type: "text" })
  action: DraftAction;

  @Field(() => ID, { nullable: true, description: "The published entry this draft changes or removes" })
  @Column({ name: "entry_id", type: "uuid", nullable: true })
  entryId: string | null;

  @Field(() => ID, { nullable: true, description: "The schedule generation that planned it" })
  @Column({ name: "generation_id", type: "uuid", nullable: true })
  generationId: string | null;
}

/** A planned break of an entry or of a draft, taken from one of the location's break types. */
@Entity("schedule_breaks")
export class ScheduleBreak {
  @PrimaryGeneratedColumn("uuid")
  id: string;

  @Column({ name: "organization_id", type: "uuid" })
  organizationId: string;

  @Column({ name: "entry_id", type: "uuid", nullable: true })
  entryId: string | null;

  @Column({ name: "draft_id", type: "uuid", nullable: true })
  draftId: string | null;

  @Column({ name: "break_type_id", type: "uuid" })
  typeId: string;

  @Column({ type: "text" })
  name: string;

  @Column({ type: "boolean" })
  paid: boolean;

  @Column({ name: "duration_minutes", type: "integer" })
  durationMinutes: number;

  @Column({ name: "start_time", type: "timestamptz", nullable: true })
  startsAt: Date | null;

  @Column({ type: "integer" })
  position: number;
}

@ObjectType({ simpleResolvers: true, description: "A planned break" })
export class PlannedBreak {
  @Field(() => ID)
  id: string;

  @Field(() => ID, { description: "The break type" })
  typeId: string;

  @Field()
  name: string;

  @Field()
  paid: boolean;

  @Field(() => Int)
  durationMinutes: number;

  @Field(() => String, { nullable: true, description: "Planned start, local time of the location; null when not fixed" })
  startTime: string | null;

  @Field(() => String, { nullable: true, description: "Planned end, local time of the location; null when not fixed" })
  endTime: string | null;
}
