import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import { Page } from "../../common/pagination";
import type { RequestContext } from "../../graphql/context";
import { ComplianceViolation, RecordedChangePay } from "../compliance";
import { Role, roleLoader } from "../roles";
import { staffLoader, StaffMember } from "../staff";
import { plannedBreaks, scheduleEntryAt } from "./schedule.loaders";
import { PlannedBreak, ScheduleDraft, ScheduleEntry } from "./schedule.entity";
import {
  BulkCopyResult,
  BulkCopyScheduleInput,
  CreateScheduleDraftInput,
  CreateScheduleEntryInput,
  PublishResult,
  PublishScheduleInput,
  ScheduleDraftConnection,
  ScheduleEntryConnection,
  ScheduleListArgs,
  UpdateScheduleDraftInput,
  UpdateScheduleEntryInput,
} from "./schedule.inputs";

@Resolver(() => ScheduleEntry)
export class ScheduleEntryResolver {
  @Query(() => ScheduleEntryConnection, { description: "A location's published entries by start; a worker sees only their own" })
  @Requires("schedules:read", "schedules:self")
  scheduleEntries(@Args() args: ScheduleListArgs, @Ctx() ctx: RequestContext): Promise<Page<ScheduleEntry>> {
    return ctx.services.schedules.list(actorOf(ctx), args);
  }

  @Query(() => ScheduleEntry)
  @Requires("schedules:read", "schedules:self")
  scheduleEntry(@Arg("locationId", () => ID) locationId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<ScheduleEntry> {
    return scheduleEntryAt(ctx, locationId, id);
  }

  @Mutation(() => ScheduleEntry, { description: "Adds a published entry at once (drafts are the way to plan ahead)" })
  @Requires("schedules:write")
  createScheduleEntry(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("input") input: CreateScheduleEntryInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ScheduleEntry> {
    return ctx.services.schedules.create(actorOf(ctx), locationId, input);
  }

  @Mutation(() => ScheduleEntry)
  @Requires("schedules:write")
  updateScheduleEntry(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("id", () => ID) id: string,
    @Arg("input") input: UpdateScheduleEntryInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ScheduleEntry> {
    return ctx.services.schedules.update(actorOf(ctx), locationId, id, input);
  }

  @Mutation(() => Boolean)
  @Requires("schedules:write")
  deleteScheduleEntry(@Arg("locationId", () => ID) locationId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.schedules.delete(actorOf(ctx), locationId, id);
  }

  @Mutation(() => PublishResult, { description: "Applies every draft that starts in the range and publishes its open shifts, in one transaction" })
  @Requires("schedules:write")
  publishSchedule(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("input") input: PublishScheduleInput,
    @Ctx() ctx: RequestContext,
  ): Promise<PublishResult> {
    return ctx.services.schedulePublishing.publish(actorOf(ctx), locationId, input);
  }

  @Mutation(() => BulkCopyResult, { description: "Copies the published entries of a date range to another start date, as drafts, keeping local times" })
  @Requires("schedules:write")
  bulkCopySchedule(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("input") input: BulkCopyScheduleInput,
    @Ctx() ctx: RequestContext,
  ): Promise<BulkCopyResult> {
    return ctx.services.scheduleDrafts.bulkCopy(actorOf(ctx), locationId, input);
  }

  @FieldResolver(() => StaffMember, { nullable: true })
  worker(@Root() entry: ScheduleEntry, @Ctx() ctx: RequestContext): Promise<StaffMember | null> {
    return staffLoader(ctx).load(entry.staffId);
  }

  @FieldResolver(() => Role, { nullable: true })
  role(@Root() entry: ScheduleEntry, @Ctx() ctx: RequestContext): Promise<Role | null> {
    return roleLoader(ctx).load(entry.roleId);
  }

  @FieldResolver(() => [PlannedBreak])
  breaks(@Root() entry: ScheduleEntry, @Ctx() ctx: RequestContext): Promise<PlannedBreak[]> {
    return plannedBreaks(ctx, entry, false);
  }

  @FieldResolver(() => [ComplianceViolation], {
    description: "The labor rules this entry breaks (its day checked with its worker's week): one check per entry, meant for single reads and writes",
  })
  violations(@Root() entry: ScheduleEntry, @Ctx() ctx: RequestContext): Promise<ComplianceViolation[]> {
    return ctx.services.compliance.violationsOfRecord(actorOf(ctx), entry);
  }

  @FieldResolver(() => [RecordedChangePay], {
    description:
      "The predictability pay the change that answers this entry just recorded (createScheduleEntry, updateScheduleEntry); empty outside the notice window and on reads",
  })
  predictabilityPay(@Root() entry: ScheduleEntry): RecordedChangePay[] {
    return entry.recordedChangePay ?? [];
  }
}

@Resolver(() => ScheduleDraft)
export class ScheduleDraftResolver {
  @Query(() => ScheduleDraftConnection, { description: "A location's unpublished drafts by start" })
  @Requires("schedules:read")
  scheduleDrafts(@Args() args: ScheduleListArgs, @Ctx() ctx: RequestContext): Promise<Page<ScheduleDraft>> {
    return ctx.services.scheduleDrafts.list(actorOf(ctx), args);
  }

  @Query(() => ScheduleDraft)
  @Requires("schedules:read")
  scheduleDraft(@Arg("locationId", () => ID) locationId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<ScheduleDraft> {
    return ctx.services.scheduleDrafts.get(actorOf(ctx), locationId, id);
  }

  @Mutation(() => ScheduleDraft)
  @Requires("schedules:write")
  createScheduleDraft(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("input") input: CreateScheduleDraftInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ScheduleDraft> {
    return ctx.services.scheduleDrafts.create(actorOf(ctx), locationId, input);
  }

  @Mutation(() => ScheduleDraft)
  @Requires("schedules:write")
  updateScheduleDraft(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("id", () => ID) id: string,
    @Arg("input") input: UpdateScheduleDraftInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ScheduleDraft> {
    return ctx.services.scheduleDrafts.update(actorOf(ctx), locationId, id, input);
  }

  @Mutation(() => Boolean)
  @Requires("schedules:write")
  deleteScheduleDraft(@Arg("locationId", () => ID) locationId: string, @Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.scheduleDrafts.delete(actorOf(ctx), locationId, id);
  }

  @FieldResolver(() => StaffMember, { nullable: true })
  worker(@Root() draft: ScheduleDraft, @Ctx() ctx: RequestContext): Promise<StaffMember | null> {
    return staffLoader(ctx).load(draft.staffId);
  }

  @FieldResolver(() => Role, { nullable: true })
  role(@Root() draft: ScheduleDraft, @Ctx() ctx: RequestContext): Promise<Role | null> {
    return roleLoader(ctx).load(draft.roleId);
  }

  @FieldResolver(() => [PlannedBreak])
  breaks(@Root() draft: ScheduleDraft, @Ctx() ctx: RequestContext): Promise<PlannedBreak[]> {
    return plannedBreaks(ctx, draft, true);
  }

  @FieldResolver(() => [ComplianceViolation], { description: "The labor rules this draft would break once published (its day checked with its worker's week)" })
  violations(@Root() draft: ScheduleDraft, @Ctx() ctx: RequestContext): Promise<ComplianceViolation[]> {
    return ctx.services.compliance.violationsOfRecord(actorOf(ctx), draft);
  }
}
