import { ArgsType, Field, ID, ObjectType } from "type-graphql";
import { GraphQLJSONObject } from "graphql-scalars";
import { IsOptional, MaxLength } from "../../common/input-checks";
import { Connection, PageArgs } from "../../common/pagination";

@ObjectType({ simpleResolvers: true, description: "One change of one record: who made it, when, and the record before and after" })
export class AuditEvent {
  @Field(() => ID)
  id: string;

  @Field()
  occurredAt: Date;

  @Field(() => ID, { nullable: true, description: "The staff member the change was made as (null for an organization-wide token)" })
  actorStaffId: string | null;

  @Field(() => ID, { nullable: true, description: "The API key behind the token (null for changes made by the service itself)" })
  actorApiKeyId: string | null;

  @Field(() => String, { nullable: true })
  requestId: string | null;

  @Field({ description: "The kind of record, by its table: staff_members, shifts, time_off_requests, …" })
  resourceType: string;

  @Field(() => String, { nullable: true })
  resourceId: string | null;

  @Field({ description: "insert, update or delete" })
  action: string;

  @Field(() => GraphQLJSONObject, { nullable: true })
  before: Record<string, unknown> | null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  after: Record<string, unknown> | null;
}

@ObjectType({ simpleResolvers: true })
export class AuditEventConnection extends Connection(AuditEvent) {}

@ArgsType()
export class AuditEventArgs extends PageArgs {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(100)
  resourceType?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(100)
  resourceId?: string;

  @Field(() => ID, { nullable: true })
  actorStaffId?: string;

  @Field(() => ID, { nullable: true })
  actorApiKeyId?: string;

  @Field(() => String, { nullable: true, description: "Changes at or after this timestamp" })
  from?: string;

  @Field(() => String, { nullable: true, description: "Changes before this timestamp" })
  to?: string;
}
