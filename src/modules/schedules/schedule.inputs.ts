import { ArgsType, Field, ID, InputType, ObjectType } from "type-graphql";
import { ArrayMaxSize, IsOptional, MaxLength, ValidateNested } from "../../common/input-checks";
import { Connection, PageArgs } from "../../common/pagination";
import { ComplianceViolation } from "../compliance";
import { DraftAction, ScheduleDraft, ScheduleEntry } from "./schedule.entity";
import { NullRefused } from "../../common/validation";

@InputType({ description: "A planned break: one of the location's break types, at a fixed time or not" })
export class PlannedBreakInput {
  @Field(() => ID)
  typeId: string;

  @Field(() => String, { nullable: true, description: "Planned start; without it the break is taken when convenient" })
  startTime?: string | null;
}

/** The fields of a planned shift as the services read them: creation requires worker, role, start and end. */
export interface ShiftPlanInput {
  workerId?: string;
  roleId?: string;
  startTime?: string;
  endTime?: string;
  templateId?: string | null;
  date?: string | null;
  breaks?: PlannedBreakInput[];
  note?: string | null;
}

@InputType()
@NullRefused<PlanDetailsInput>("breaks")
abstract class PlanDetailsInput {
  @Field(() => [PlannedBreakInput], { nullable: true, description: "Replaces the planned breaks" })
  @IsOptional()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  breaks?: PlannedBreakInput[];

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(2000)
  note?: string | null;
}

@InputType()
@NullRefused<PlanChangeInput>("workerId", "roleId", "startTime", "endTime")
export abstract class PlanChangeInput extends PlanDetailsInput implements ShiftPlanInput {
  @Field(() => ID, { nullable: true })
  workerId?: string;

  @Field(() => ID, { nullable: true })
  roleId?: string;

  @Field(() => String, { nullable: true, description: "Timestamp; without an offset it is the location's wall time" })
  startTime?: string;

  @Field(() => String, { nullable: true, description: "Timestamp; without an offset it is the location's wall time" })
  endTime?: string;
}

const FROM_TEMPLATE = "With templateId: the template's role, times on that day, and breaks, unless given";

@InputType()
@NullRefused<CreateScheduleEntryInput>("roleId", "startTime", "endTime")
export class CreateScheduleEntryInput extends PlanDetailsInput implements ShiftPlanInput {
  @Field(() => ID)
  workerId: string;

  @Field(() => ID, { nullable: true, description: "Required unless templateId is given" })
  roleId?: string;

  @Field(() => String, { nullable: true, description: "Timestamp; without an offset it is the location's wall time. Required unless templateId is given" })
  startTime?: string;

  @Field(() => String, { nullable: true, description: "Timestamp; without an offset it is the location's wall time. Required unless templateId is given" })
  endTime?: string;

  @Field(() => ID, { nullable: true, description: `The shift template to plan from (with date). ${FROM_TEMPLATE}` })
  templateId?: string | null;

  @Field(() => String, { nullable: true, description: "The day (YYYY-MM-DD, the location's calendar) of a shift made from templateId" })
  date?: string | null;
}

@InputType()
export class UpdateScheduleEntryInput extends PlanChangeInput {}

@InputType({ description: "Without entryId: a new entry. With entryId: a change (fields not given are kept) or, with action REMOVE, its removal" })
export class CreateScheduleDraftInput extends PlanChangeInput {
  @Field(() => ID, { nullable: true, description: "The published entry to change or remove" })
  entryId?: string | null;

  @Field(() => DraftAction, { nullable: true, description: "ADD without entryId, CHANGE with it, unless given" })
  action?: DraftAction | null;

  @Field(() => ID, { nullable: true, description: `The shift template to plan from (with date). ${FROM_TEMPLATE}` })
  templateId?: string | null;

  @Field(() => String, { nullable: true, description: "The day (YYYY-MM-DD, the location's calendar) of a shift made from templateId" })
  date?: string | null;
}

@InputType()
export class UpdateScheduleDraftInput extends PlanChangeInput {}

@ArgsType()
export class ScheduleListArgs extends PageArgs {
  @Field(() => ID)
  locationId: string;

  @Field(() => String, { nullable: true, description: "First day (YYYY-MM-DD, the location's calendar) of entries that start in the range" })
  startDate?: string;

  @Field(() => String, { nullable: true, description: "Last day (YYYY-MM-DD), inclusive" })
  endDate?: string;

  @Field(() => ID, { nullable: true })
  workerId?: string;

  @Field(() => ID, { nullable: true })
  roleId?: string;
}

@InputType()
export class PublishScheduleInput {
  @Field({ description: "First day (YYYY-MM-DD) of the range to publish" })
  startDate: string;

  @Field({ description: "Last day (YYYY-MM-DD), inclusive" })
  endDate: string;

  @Field(() => Boolean, { nullable: true, description: "Publish despite the labor rules the range breaks (errors); needs a reason" })
  acknowledge?: boolean | null;

  @Field(() => String, { nullable: true, description: "Why the violations are acknowledged; kept with them in the audit trail" })
  @IsOptional()
  @MaxLength(2000)
  reason?: string | null;
}

@InputType()
export class BulkCopyScheduleInput {
  @Field({ description: "First day (YYYY-MM-DD) of the entries to copy" })
  sourceStartDate: string;

  @Field({ description: "Last day (YYYY-MM-DD), inclusive" })
  sourceEndDate: string;

  @Field({ description: "The day the copy of sourceStartDate falls on" })
  targetStartDate: string;
}

@ObjectType({ simpleResolvers: true })
export class ScheduleEntryConnection extends Connection(ScheduleEntry) {}

@ObjectType({ simpleResolvers: true })
export class ScheduleDraftConnection extends Connection(ScheduleDraft) {}

@ObjectType({ simpleResolvers: true, description: "What publishing changed in the published schedule" })
export class PublishResult {
  @Field()
  startDate: string;

  @Field()
  endDate: string;

  @Field(() => [ScheduleEntry])
  added: ScheduleEntry[];

  @Field(() => [ScheduleEntry])
  changed: ScheduleEntry[];

  @Field(() => [ScheduleEntry], { description: "The entries removed, as they were" })
  removed: ScheduleEntry[];

  @Field(() => [ID], { description: "Open shifts of the range that were published" })
  openShiftIds: string[];

  @Field(() => [ComplianceViolation], { description: "The labor rules the published range breaks: warnings, and errors acknowledged" })
  violations: ComplianceViolation[];
}

@ObjectType({ simpleResolvers: true })
export class BulkCopyResult {
  @Field(() => [ScheduleDraft], { description: "The new drafts, one per copied entry" })
  drafts: ScheduleDraft[];
}
