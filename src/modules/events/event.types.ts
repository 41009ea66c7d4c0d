import { ArgsType, Field, ID, ObjectType } from "type-graphql";
import { GraphQLJSONObject, GraphQLSafeInt } from "graphql-scalars";
import { ArrayMaxSize, IsOptional } from "../../common/input-checks";
import { Connection, PageArgs } from "../../common/pagination";

@ObjectType({ simpleResolvers: true, description: "Who made a change: a staff member and/or the API key behind the token" })
export class EventActor {
  @Field(() => ID, { nullable: true })
  staffId: string | null;

  @Field(() => ID, { nullable: true })
  apiKeyId: string | null;
}

@ObjectType({ simpleResolvers: true })
export class EventData {
  @Field(() => GraphQLJSONObject, { description: "The resource as it was right after the change (before it, for a deletion)" })
  object: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "The old values of the fields the change changed" })
  previousAttributes?: Record<string, unknown>;
}

@ObjectType({ simpleResolvers: true, description: "A change the organization's integrations can follow (catalog: docs/events.md)" })
export class Event {
  @Field(() => ID)
  id: string;

  @Field({ description: "shift.created, timeclock.clocked_in, … (docs/events.md)" })
  type: string;

  @Field()
  occurredAt: Date;

  @Field(() => ID)
  organizationId: string;

  @Field(() => EventActor, { nullable: true, description: "Null for a change the service made by itself" })
  actor: EventActor | null;

  @Field(() => GraphQLSafeInt, { description: "Position in the organization's commit order: 1, 2, 3, … with no gaps" })
  sequence: number;

  @Field(() => EventData)
  data: EventData;
}

@ObjectType({ simpleResolvers: true })
export class EventConnection extends Connection(Event) {}

@ArgsType()
export class EventArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: "Events after this sequence number (the endCursor of the previous page)" })
  declare after?: string;

  @Field(() => [String], { nullable: true, description: "Only events of these types" })
  @IsOptional()
  @ArrayMaxSize(100)
  types?: string[];
}
