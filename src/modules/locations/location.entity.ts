import { Field, ObjectType } from "type-graphql";
import { Column, Entity } from "typeorm";
import { TenantRecord } from "../../common/entity-columns";

@ObjectType({ simpleResolvers: true, description: "A place where staff work, with its own time zone" })
@Entity("locations")
export class Location extends TenantRecord {
  @Field()
  @Column({ type: "text" })
  name: string;

  @Field({ description: "IANA time zone name, such as America/New_York" })
  @Column({ type: "text" })
  timezone: string;

  @Field(() => String, { nullable: true, description: "The location's id in another system" })
  @Column({ name: "external_id", type: "text", nullable: true })
  externalId: string | null;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  address: string | null;
}
