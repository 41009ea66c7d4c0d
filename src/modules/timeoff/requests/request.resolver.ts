import { Arg, Args, Ctx, FieldResolver, Float, ID, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import { actorOf, Requires } from "../../../graphql/authorization";
import { round2 } from "../../../common/entity-columns";
import { Page } from "../../../common/pagination";
import { utcOffsetMinutes } from "../../../common/time";
import type { RequestContext } from "../../../graphql/context";
import { staffLoader, StaffMember } from "../../staff";
import { TimeOffPolicy } from "../policies/policy.entity";
import {
  ApprovedTimeOffArgs,
  CreateTimeOffRequestInput,
  DayHoursView,
  DeclineTimeOffRequestInput,
  TimeOffRequestConnection,
  TimeOffRequestFilterArgs,
  UpdateTimeOffRequestInput,
} from "./request.graphql";
import { TimeOffRequest } from "./request.entity";
import { visibleBalance, policyLoader, workerPolicyByPairLoader } from "../timeoff.loaders";
import { availableOf } from "../balances/worker-policy.service";
import { WorkerPolicy } from "../balances/worker-policy.entity";

@Resolver(() => TimeOffRequest)
export class TimeOffRequestResolver {
  @Query(() => TimeOffRequestConnection, { description: "Requests by start; a worker sees their own" })
  @Requires("timeoff:self", "timeoff:read")
  timeOffRequests(@Args() args: TimeOffRequestFilterArgs, @Ctx() ctx: RequestContext): Promise<Page<TimeOffRequest>> {
    return ctx.services.timeOffRequests.list(actorOf(ctx), args);
  }

  @Query(() => TimeOffRequestConnection, { description: "Approved time off overlapping the range, by start" })
  @Requires("timeoff:self", "timeoff:read")
  approvedTimeOffs(@Args() args: ApprovedTimeOffArgs, @Ctx() ctx: RequestContext): Promise<Page<TimeOffRequest>> {
    return ctx.services.timeOffRequests.approved(actorOf(ctx), args);
  }

  @Query(() => TimeOffRequest)
  @Requires("timeoff:self", "timeoff:read")
  timeOffRequest(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<TimeOffRequest> {
    return ctx.services.timeOffRequests.get(actorOf(ctx), id);
  }

  @Mutation(() => TimeOffRequest, { description: "Files a request: pending, or approved at once where the policy needs no approval" })
  @Requires("timeoff:self", "timeoff:approve")
  createTimeOffRequest(@Arg("input") input: CreateTimeOffRequestInput, @Ctx() ctx: RequestContext): Promise<TimeOffRequest> {
    return ctx.services.timeOffRequests.create(actorOf(ctx), input);
  }

  @Mutation(() => TimeOffRequest, { description: "Changes a pending request" })
  @Requires("timeoff:self", "timeoff:approve")
  updateTimeOffRequest(@Arg("id", () => ID) id: string, @Arg("input") input: UpdateTimeOffRequestInput, @Ctx() ctx: RequestContext): Promise<TimeOffRequest> {
    return ctx.services.timeOffRequests.update(actorOf(ctx), id, input);
  }

  @Mutation(() => TimeOffRequest, { description: "Cancels a pending or approved request; approved hours are given back" })
  @Requires("timeoff:self", "timeoff:approve")
  deleteTimeOffRequest(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<TimeOffRequest> {
    return ctx.services.timeOffRequests.cancel(actorOf(ctx), id);
  }

  @Mutation(() => TimeOffRequest)
  @Requires("timeoff:approve")
  approveTimeOffRequest(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<TimeOffRequest> {
    return ctx.services.timeOffRequests.approve(actorOf(ctx), id);
  }

  @Mutation(() => TimeOffRequest)
  @Requires("timeoff:approve")
  declineTimeOffRequest(
    @Arg("id", () => ID) id: string,
    @Arg("input", () => DeclineTimeOffRequestInput, { nullable: true }) input: DeclineTimeOffRequestInput | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<TimeOffRequest> {
    return ctx.services.timeOffRequests.decline(actorOf(ctx), id, input?.reason);
  }

  @FieldResolver(() => TimeOffPolicy)
  async policy(@Root() request: TimeOffRequest, @Ctx() ctx: RequestContext): Promise<TimeOffPolicy> {
    return (await policyLoader(ctx).load(request.policyId))!;
  }

  @FieldResolver(() => StaffMember, { nullable: true })
  worker(@Root() request: TimeOffRequest, @Ctx() ctx: RequestContext): Promise<StaffMember | null> {
    return staffLoader(ctx).load(request.staffId);
  }

  @FieldResolver(() => WorkerPolicy)
  async workerPolicy(@Root() request: TimeOffRequest, @Ctx() ctx: RequestContext): Promise<WorkerPolicy> {
    return (await workerPolicyByPairLoader(ctx).load(`${request.policyId}:${request.staffId}`))!;
  }

  @FieldResolver(() => [DayHoursView], { description: "Hours off per calendar day, in the request's time zone" })
  hourConfiguration(@Root() request: TimeOffRequest): DayHoursView[] {
    return request.hourConfiguration.map((d) => ({ date: d.date, hours: round2(d.hours) }));
  }

  @FieldResolver(() => Float)
  totalHours(@Root() request: TimeOffRequest): number {
    return round2(request.totalHours);
  }

  @FieldResolver(() => Int, { description: "Minutes east of UTC of the request's zone at its start" })
  utcOffset(@Root() request: TimeOffRequest): number {
    return utcOffsetMinutes(request.startTime, request.timezone);
  }

  @FieldResolver(() => Float, {
    nullable: true,
    description: "The balance left once this and every other pending request of the worker on the policy are approved",
  })
  async remainingBalance(@Root() request: TimeOffRequest, @Ctx() ctx: RequestContext): Promise<number | null> {
    const workerPolicy = await this.workerPolicy(request, ctx);
    const balance = await visibleBalance(ctx, workerPolicy.id);
    return balance && round2(availableOf(balance));
  }
}
