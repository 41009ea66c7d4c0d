import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import { Page, PageArgs } from "../../common/pagination";
import type { RequestContext } from "../../graphql/context";
import {
  CreateWebhookEndpointInput,
  RecoverResult,
  RecoverWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookAttempt,
  WebhookAttemptConnection,
  WebhookDelivery,
  WebhookDeliveryArgs,
  WebhookDeliveryConnection,
  WebhookEndpoint,
  WebhookEndpointConnection,
} from "./webhook.types";

@Resolver(() => WebhookEndpoint)
export class WebhookResolver {
  @Query(() => WebhookEndpointConnection)
  @Requires("webhooks:manage")
  webhookEndpoints(@Args() page: PageArgs, @Ctx() ctx: RequestContext): Promise<Page<WebhookEndpoint>> {
    return ctx.services.webhooks.list(actorOf(ctx), page);
  }

  @Query(() => WebhookEndpoint)
  @Requires("webhooks:manage")
  webhookEndpoint(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<WebhookEndpoint> {
    return ctx.services.webhooks.get(actorOf(ctx), id);
  }

  @Mutation(() => WebhookEndpoint, { description: "The answer carries the signing secret, shown this once" })
  @Requires("webhooks:manage")
  createWebhookEndpoint(@Arg("input") input: CreateWebhookEndpointInput, @Ctx() ctx: RequestContext): Promise<WebhookEndpoint> {
    return ctx.services.webhooks.create(actorOf(ctx), input);
  }

  @Mutation(() => WebhookEndpoint)
  @Requires("webhooks:manage")
  updateWebhookEndpoint(
    @Arg("id", () => ID) id: string,
    @Arg("input") input: UpdateWebhookEndpointInput,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookEndpoint> {
    return ctx.services.webhooks.update(actorOf(ctx), id, input);
  }

  @Mutation(() => Boolean)
  @Requires("webhooks:manage")
  deleteWebhookEndpoint(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.webhooks.delete(actorOf(ctx), id);
  }

  @Mutation(() => WebhookEndpoint, { description: "A new signing secret, shown this once; the old one keeps signing (both signatures sent) for 24 hours" })
  @Requires("webhooks:manage")
  rotateWebhookEndpointSecret(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<WebhookEndpoint> {
    return ctx.services.webhooks.rotateSecret(actorOf(ctx), id);
  }

  @Query(() => WebhookDeliveryConnection, { description: "An endpoint's deliveries, newest first" })
  @Requires("webhooks:manage")
  webhookEndpointDeliveries(@Args() args: WebhookDeliveryArgs, @Ctx() ctx: RequestContext): Promise<Page<WebhookDelivery>> {
    return ctx.services.webhooks.deliveries(actorOf(ctx), args.id, args);
  }

  @Query(() => WebhookAttemptConnection, {
    description: "Every attempt to deliver to an endpoint, newest first: event, status code, duration, error, next retry",
  })
  @Requires("webhooks:manage")
  webhookEndpointAttempts(@Args() args: WebhookDeliveryArgs, @Ctx() ctx: RequestContext): Promise<Page<WebhookAttempt>> {
    return ctx.services.webhooks.attempts(actorOf(ctx), args.id, args);
  }

  @Mutation(() => RecoverResult, { description: "Sends again every event since a time" })
  @Requires("webhooks:manage")
  async recoverWebhookEndpoint(
    @Arg("id", () => ID) id: string,
    @Arg("input") input: RecoverWebhookEndpointInput,
    @Ctx() ctx: RequestContext,
  ): Promise<RecoverResult> {
    const result = await ctx.services.webhooks.recover(actorOf(ctx), id, input.since);
    // The call spent one point; each delivery it queued costs one more.
    await ctx.spendPoints?.(result.queued - 1);
    return result;
  }

  @Mutation(() => WebhookDelivery, { description: "Sends a ping (webhook_endpoint.test)" })
  @Requires("webhooks:manage")
  testWebhookEndpoint(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<WebhookDelivery> {
    return ctx.services.webhooks.test(actorOf(ctx), id);
  }
}
