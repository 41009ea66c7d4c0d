import { Field, ID, Int, ObjectType } from "type-graphql";
import { Column, Entity } from "typeorm";
import { TenantRecord } from "../../common/entity-columns";

@ObjectType({ simpleResolvers: true, description: "A kind of break a location's staff take (lunch, rest), paid or not" })
@Entity("break_types")
export class BreakType extends TenantRecord {
  @Field()
  @Column({ type: "text" })
  name: string;

  @Field(() => ID)
  @Column({ name: "location_id", type: "uuid" })
  locationId: string;

  @Field(() => Int, { description: "How long the break lasts, in minutes" })
  @Column({ name: "duration_minutes", type: "integer" })
  durationMinutes: number;

  @Field(() => Int, { description: "For a mandatory break: at most this many minutes of work without one (0: no rule)" })
  @Column({ name: "frequency_minutes", type: "integer" })
  frequencyMinutes: number;

  @Field()
  @Column({ type: "boolean" })
  paid: boolean;

  @Field()
  @Column({ type: "boolean" })
  mandatory: boolean;

  @Field({ description: "False once deleted" })
  @Column({ type: "boolean" })
  active: boolean;

  @Field({ description: "Switched off: kept, but no new breaks of this type can be taken" })
  @Column({ type: "boolean" })
  enabled: boolean;

  @Field(() => Date, { nullable: true })
  @Column({ name: "deleted_at", type: "timestamptz", nullable: true })
  deletedAt: Date | null;
}
