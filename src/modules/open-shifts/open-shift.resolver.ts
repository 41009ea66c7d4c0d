import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import { Page } from "../../common/pagination";
import type { RequestContext } from "../../graphql/context";
import { Location, locationLoader } from "../locations";
import { roleLoader } from "../roles";
import { staffLoader } from "../staff";
import { OpenShift, OpenShiftPreference, PreferenceDraft, PreferenceWorker } from "./open-shift.entity";
import {
  BulkAssignInput,
  BulkAssignResult,
  ClaimOpenShiftInput,
  CreateOpenShiftInput,
  CreatePreferenceInput,
  OpenShiftConnection,
  OpenShiftListArgs,
  UpdateOpenShiftInput,
  UpdatePreferenceInput,
  WorkerChoiceInput,
} from "./open-shift.inputs";
import { openShiftPreferencesLoader } from "./open-shift.loaders";

const LocationId = () => Arg("locationId", () => ID);
const OpenShiftId = () => Arg("id", () => ID);
const PreferenceId = () => Arg("preferenceId", () => ID);

@Resolver(() => OpenShift)
export class OpenShiftResolver {
  @Query(() => OpenShiftConnection, { description: "A location's open shifts that start in the date range; workers see published ones" })
  @Requires("schedules:read", "schedules:self")
  openShifts(@Args() args: OpenShiftListArgs, @Ctx() ctx: RequestContext): Promise<Page<OpenShift>> {
    return ctx.services.openShifts.list(actorOf(ctx), args);
  }

  @Query(() => OpenShift)
  @Requires("schedules:read", "schedules:self")
  openShift(@LocationId() locationId: string, @OpenShiftId() id: string, @Ctx() ctx: RequestContext): Promise<OpenShift> {
    return ctx.services.openShifts.get(actorOf(ctx), locationId, id);
  }

  @Mutation(() => OpenShift, { description: "Creates an open shift in draft; it is published with the schedule" })
  @Requires("schedules:write")
  createOpenShift(@LocationId() locationId: string, @Arg("input") input: CreateOpenShiftInput, @Ctx() ctx: RequestContext): Promise<OpenShift> {
    return ctx.services.openShifts.create(actorOf(ctx), locationId, input);
  }

  @Mutation(() => OpenShift)
  @Requires("schedules:write")
  updateOpenShift(
    @LocationId() locationId: string,
    @OpenShiftId() id: string,
    @Arg("input") input: UpdateOpenShiftInput,
    @Ctx() ctx: RequestContext,
  ): Promise<OpenShift> {
    return ctx.services.openShifts.update(actorOf(ctx), locationId, id, input);
  }

  @Mutation(() => Boolean)
  @Requires("schedules:write")
  deleteOpenShift(@LocationId() locationId: string, @OpenShiftId() id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.openShifts.delete(actorOf(ctx), locationId, id);
  }

  @Mutation(() => OpenShiftPreference, { description: "Claims a published open shift: PENDING when it needs approval, else ACCEPTED with a schedule entry" })
  @Requires("schedules:write", "openshifts:claim")
  claimOpenShift(
    @LocationId() locationId: string,
    @OpenShiftId() id: string,
    @Arg("input", () => ClaimOpenShiftInput, { nullable: true }) input: ClaimOpenShiftInput | null,
    @Ctx() ctx: RequestContext,
  ): Promise<OpenShiftPreference> {
    return ctx.services.openShiftAssignment.claim(actorOf(ctx), locationId, id, input ?? {});
  }

  @Mutation(() => OpenShiftPreference, { description: "Withdraws the worker's pending claim" })
  @Requires("schedules:write", "openshifts:claim")
  retractOpenShiftClaim(
    @LocationId() locationId: string,
    @OpenShiftId() id: string,
    @Arg("input", () => WorkerChoiceInput, { nullable: true }) input: WorkerChoiceInput | null,
    @Ctx() ctx: RequestContext,
  ): Promise<OpenShiftPreference> {
    return ctx.services.openShifts.retractClaim(actorOf(ctx), locationId, id, input ?? {});
  }

  @Mutation(() => OpenShiftPreference)
  @Requires("schedules:write", "openshifts:claim")
  createOpenShiftPreference(
    @LocationId() locationId: string,
    @OpenShiftId() id: string,
    @Arg("input") input: CreatePreferenceInput,
    @Ctx() ctx: RequestContext,
  ): Promise<OpenShiftPreference> {
    return ctx.services.openShifts.createPreference(actorOf(ctx), locationId, id, input);
  }

  @Mutation(() => OpenShiftPreference, { description: "Changes a PENDING preference's value" })
  @Requires("schedules:write", "openshifts:claim")
  updateOpenShiftPreference(
    @LocationId() locationId: string,
    @OpenShiftId() id: string,
    @PreferenceId() preferenceId: string,
    @Arg("input") input: UpdatePreferenceInput,
    @Ctx() ctx: RequestContext,
  ): Promise<OpenShiftPreference> {
    return ctx.services.openShifts.updatePreference(actorOf(ctx), locationId, id, preferenceId, input);
  }

  @Mutation(() => OpenShiftPreference, { description: "PENDING → RETRACTED, by its worker or a manager" })
  @Requires("schedules:write", "openshifts:claim")
  retractOpenShiftPreference(
    @LocationId() locationId: string,
    @OpenShiftId() id: string,
    @PreferenceId() preferenceId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<OpenShiftPreference> {
    return ctx.services.openShifts.retractPreference(actorOf(ctx), locationId, id, preferenceId);
  }

  @Mutation(() => OpenShiftPreference, { description: "PENDING or ACCEPTED → REMOVED; an accepted worker's schedule entry is removed too" })
  @Requires("schedules:write")
  removeOpenShiftPreference(
    @LocationId() locationId: string,
    @OpenShiftId() id: string,
    @PreferenceId() preferenceId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<OpenShiftPreference> {
    return ctx.services.openShiftAssignment.removePreference(actorOf(ctx), locationId, id, preferenceId);
  }

  @Mutation(() => OpenShiftPreference, { description: "PENDING → DECLINED" })
  @Requires("schedules:write")
  declineOpenShiftPreference(
    @LocationId() locationId: string,
    @OpenShiftId() id: string,
    @PreferenceId() preferenceId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<OpenShiftPreference> {
    return ctx.services.openShifts.declinePreference(actorOf(ctx), locationId, id, preferenceId);
  }

  @Mutation(() => OpenShiftPreference, { description: "PENDING → ACCEPTED: the worker gets a schedule entry (409 OPEN_SHIFT_FULL when no place is left)" })
  @Requires("schedules:write")
  assignOpenShiftPreference(
    @LocationId() locationId: string,
    @OpenShiftId() id: string,
    @PreferenceId() preferenceId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<OpenShiftPreference> {
    return ctx.services.openShiftAssignment.assignPreference(actorOf(ctx), locationId, id, preferenceId);
  }

  @Mutation(() => BulkAssignResult, { description: "Accepts each preference on its own; one result per preference" })
  @Requires("schedules:write")
  bulkAssignOpenShiftPreferences(
    @LocationId() locationId: string,
    @Arg("input") input: BulkAssignInput,
    @Ctx() ctx: RequestContext,
  ): Promise<BulkAssignResult> {
    return ctx.services.openShiftAssignment.bulkAssign(actorOf(ctx), locationId, input);
  }

  @FieldResolver(() => Location, { nullable: true })
  location(@Root() shift: OpenShift, @Ctx() ctx: RequestContext): Promise<Location | null> {
    return locationLoader(ctx).load(shift.locationId);
  }

  @FieldResolver(() => String, { nullable: true })
  async roleName(@Root() shift: OpenShift, @Ctx() ctx: RequestContext): Promise<string | null> {
    return (await roleLoader(ctx).load(shift.roleId))?.name ?? null;
  }

  @FieldResolver(() => [OpenShiftPreference], { description: "Preferences of the published shift (a worker sees their own)" })
  async preferences(@Root() shift: OpenShift, @Ctx() ctx: RequestContext): Promise<OpenShiftPreference[]> {
    return ctx.services.openShifts.visiblePreferences(actorOf(ctx), await openShiftPreferencesLoader(ctx).load(shift.id), false);
  }

  @FieldResolver(() => [OpenShiftPreference], { description: "Preferences stated while the shift is a draft; they become preferences when it is published" })
  async draftPreferences(@Root() shift: OpenShift, @Ctx() ctx: RequestContext): Promise<OpenShiftPreference[]> {
    return ctx.services.openShifts.visiblePreferences(actorOf(ctx), await openShiftPreferencesLoader(ctx).load(shift.id), true);
  }
}

@Resolver(() => OpenShiftPreference)
export class OpenShiftPreferenceResolver {
  @FieldResolver(() => PreferenceWorker, { nullable: true })
  async worker(@Root() preference: OpenShiftPreference, @Ctx() ctx: RequestContext): Promise<PreferenceWorker | null> {
    const staff = await staffLoader(ctx).load(preference.staffId);
    return staff && { id: staff.id, externalId: staff.externalEmployeeId, name: staff.name };
  }

  @FieldResolver(() => PreferenceDraft, { nullable: true, description: "For a draft preference, what it becomes when the open shift is published" })
  draft(@Root() preference: OpenShiftPreference): PreferenceDraft | null {
    return preference.isDraft ? { preference: preference.preference, status: preference.status } : null;
  }
}
