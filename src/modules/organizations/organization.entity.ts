import { Field, ID, ObjectType } from "type-graphql";
import { Column, Entity, PrimaryGeneratedColumn } from "typeorm";
import { Timestamps } from "../../common/entity-columns";

@ObjectType({ simpleResolvers: true, description: "A business using the service: its staff, places and settings belong to it alone" })
@Entity("organizations")
export class Organization extends Timestamps {
  @Field(() => ID)
  @PrimaryGeneratedColumn("uuid")
  id: string;

  @Field()
  @Column({ type: "text" })
  name: string;

  @Field({ description: "Default IANA time zone, for dates that belong to no location" })
  @Column({ type: "text" })
  timezone: string;
}
