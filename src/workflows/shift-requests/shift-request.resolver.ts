import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import type { RequestContext } from "../../graphql/context";
import { ShiftRequest } from "./shift-request.entity";
import { shiftRequestPreviewLoader } from "./shift-request.loaders";
import {
  ApproveShiftRequestInput,
  CreateShiftRequestInput,
  ShiftRequestListArgs,
  ShiftRequestPreview,
  ShiftRequestSettings,
  UpdateShiftRequestSettingsInput,
} from "./shift-request.graphql";

const ANYONE = ["shiftrequests:manage", "shiftrequests:self"] as const;

@Resolver(() => ShiftRequest)
export class ShiftRequestResolver {
  @Query(() => [ShiftRequest], { description: "Shift requests, newest first: a worker sees their own and the open covers they may take" })
  @Requires(...ANYONE)
  shiftRequests(@Args() args: ShiftRequestListArgs, @Ctx() ctx: RequestContext): Promise<ShiftRequest[]> {
    return ctx.services.shiftRequests.list(actorOf(ctx), args);
  }

  @Query(() => ShiftRequest)
  @Requires(...ANYONE)
  shiftRequest(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<ShiftRequest> {
    return ctx.services.shiftRequests.get(actorOf(ctx), id);
  }

  @Mutation(() => ShiftRequest, { description: "Offers a published entry: SWAP, COVER (named or open) or DROP" })
  @Requires(...ANYONE)
  createShiftRequest(@Arg("input") input: CreateShiftRequestInput, @Ctx() ctx: RequestContext): Promise<ShiftRequest> {
    return ctx.services.shiftRequests.create(actorOf(ctx), input);
  }

  @Mutation(() => ShiftRequest, { description: "The recipient (for an open cover: the first eligible worker) takes it" })
  @Requires(...ANYONE)
  acceptShiftRequest(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<ShiftRequest> {
    return ctx.services.shiftRequests.accept(actorOf(ctx), id);
  }

  @Mutation(() => ShiftRequest, { description: "The recipient says no" })
  @Requires(...ANYONE)
  declineShiftRequest(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<ShiftRequest> {
    return ctx.services.shiftRequests.decline(actorOf(ctx), id);
  }

  @Mutation(() => ShiftRequest, { description: "A manager approves: everything re-checked, the entries moved in one transaction" })
  @Requires("shiftrequests:manage")
  approveShiftRequest(
    @Arg("id", () => ID) id: string,
    @Arg("input", () => ApproveShiftRequestInput, { nullable: true }) input: ApproveShiftRequestInput | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<ShiftRequest> {
    return ctx.services.shiftRequests.approve(actorOf(ctx), id, input ?? {});
  }

  @Mutation(() => ShiftRequest)
  @Requires("shiftrequests:manage")
  rejectShiftRequest(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<ShiftRequest> {
    return ctx.services.shiftRequests.reject(actorOf(ctx), id);
  }

  @Mutation(() => ShiftRequest, { description: "The requester or a manager withdraws it" })
  @Requires(...ANYONE)
  cancelShiftRequest(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<ShiftRequest> {
    return ctx.services.shiftRequests.cancel(actorOf(ctx), id);
  }

  @FieldResolver(() => ShiftRequestPreview, { description: "Eligibility, violations and premiums of the change per person, worked out now" })
  preview(@Root() request: ShiftRequest, @Ctx() ctx: RequestContext): Promise<ShiftRequestPreview> {
    return shiftRequestPreviewLoader(ctx).load(request);
  }

  @Query(() => ShiftRequestSettings)
  @Requires(...ANYONE)
  shiftRequestSettings(@Arg("locationId", () => ID) locationId: string, @Ctx() ctx: RequestContext): Promise<ShiftRequestSettings> {
    return ctx.services.shiftRequests.settings(actorOf(ctx), locationId);
  }

  @Mutation(() => ShiftRequestSettings)
  @Requires("shiftrequests:manage")
  updateShiftRequestSettings(
    @Arg("locationId", () => ID) locationId: string,
    @Arg("input") input: UpdateShiftRequestSettingsInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ShiftRequestSettings> {
    return ctx.services.shiftRequests.updateSettings(actorOf(ctx), locationId, input);
  }
}
