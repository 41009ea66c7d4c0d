import { ArgsType, Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { ArrayMaxSize, IsOptional, Length, MaxLength } from "../../common/input-checks";
import { Connection, PageArgs } from "../../common/pagination";

@ObjectType({ simpleResolvers: true, description: "Where the organization's events are sent, signed as Standard Webhooks says" })
export class WebhookEndpoint {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  organizationId: string;

  @Field()
  url: string;

  @Field(() => String, { nullable: true })
  description: string | null;

  @Field(() => [String], { description: "The event types sent; empty means every type" })
  eventTypes: string[];

  @Field()
  enabled: boolean;

  @Field(() => String, { nullable: true, description: "Why the service disabled the endpoint (410 Gone, failing for 5 days)" })
  disabledReason: string | null;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;

  @Field(() => String, { nullable: true, description: "The signing secret (whsec_…): shown only when created and when rotated" })
  secret?: string | null;
}

@ObjectType({ simpleResolvers: true })
export class WebhookEndpointConnection extends Connection(WebhookEndpoint) {}

@InputType()
export class CreateWebhookEndpointInput {
  @Field()
  @Length(1, 2000)
  url: string;

  @Field(() => [String], { nullable: true, description: "Event types to send; empty or absent: every type" })
  @IsOptional()
  @ArrayMaxSize(200)
  eventTypes?: string[];

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(500)
  description?: string | null;

  @Field(() => Boolean, { nullable: true })
  enabled?: boolean;
}

@InputType()
export class UpdateWebhookEndpointInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 2000)
  url?: string;

  @Field(() => [String], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(200)
  eventTypes?: string[];

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(500)
  description?: string | null;

  @Field(() => Boolean, { nullable: true })
  enabled?: boolean;
}

@InputType()
export class RecoverWebhookEndpointInput {
  @Field({ description: "Re-send every event (of the endpoint's types) that occurred at or after this time" })
  since: string;
}

@ObjectType({ simpleResolvers: true, description: "One event's delivery to one endpoint and its latest attempt" })
export class WebhookDelivery {
  @Field(() => ID)
  id: string;

  @Field(() => ID, { nullable: true, description: "Null for a test ping" })
  eventId: string | null;

  @Field()
  eventType: string;

  @Field({ description: "pending (retrying), delivered or failed (given up)" })
  status: string;

  @Field(() => Int)
  attempts: number;

  @Field(() => Date, { nullable: true })
  lastAttemptAt: Date | null;

  @Field(() => Int, { nullable: true, description: "The receiver's HTTP status of the latest attempt" })
  statusCode: number | null;

  @Field(() => Int, { nullable: true, description: "Milliseconds the latest attempt took" })
  durationMs: number | null;

  @Field(() => String, { nullable: true })
  error: string | null;

  @Field(() => String, { nullable: true, description: "The start of the receiver's answer (a few KB at most)" })
  response: string | null;

  @Field(() => Date, { nullable: true, description: "When the next attempt is due (pending deliveries)" })
  nextAttemptAt: Date | null;

  @Field()
  createdAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class WebhookDeliveryConnection extends Connection(WebhookDelivery) {}

@ObjectType({ simpleResolvers: true, description: "One attempt to deliver an event (or a test ping) to an endpoint" })
export class WebhookAttempt {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  deliveryId: string;

  @Field(() => ID, { nullable: true, description: "Null for a test ping" })
  eventId: string | null;

  @Field()
  eventType: string;

  @Field(() => Int, { description: "1 for the first attempt of the delivery, 2 for its first retry, …" })
  attempt: number;

  @Field({ description: "What the attempt left the delivery: delivered, pending (a retry is due at nextAttemptAt) or failed (given up)" })
  status: string;

  @Field()
  attemptedAt: Date;

  @Field(() => Int, { nullable: true, description: "The receiver's HTTP status; null when it did not answer" })
  statusCode: number | null;

  @Field(() => Int, { description: "Milliseconds the attempt took" })
  durationMs: number;

  @Field(() => String, { nullable: true })
  error: string | null;

  @Field(() => String, { nullable: true, description: "The start of the receiver's answer (a few KB at most)" })
  response: string | null;

  @Field(() => Date, { nullable: true, description: "When the retry this attempt scheduled is due; null once delivered or given up" })
  nextAttemptAt: Date | null;
}

@ObjectType({ simpleResolvers: true })
export class WebhookAttemptConnection extends Connection(WebhookAttempt) {}

@ArgsType()
export class WebhookDeliveryArgs extends PageArgs {
  @Field(() => ID)
  id: string;
}

@ObjectType({ simpleResolvers: true })
export class RecoverResult {
  @Field(() => Int, { description: "Events queued again for delivery" })
  queued: number;
}
