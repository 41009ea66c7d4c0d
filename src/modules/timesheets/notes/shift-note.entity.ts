import { Field, ID, ObjectType } from "type-graphql";
import { Column, Entity } from "typeorm";
import { TenantRecord } from "../../../common/entity-columns";

@ObjectType({ simpleResolvers: true, description: "A note on a shift, by a staff member (or by an organization-wide key: no author)" })
@Entity("shift_notes")
export class ShiftNote extends TenantRecord {
  @Field(() => ID)
  @Column({ name: "shift_id", type: "uuid" })
  shiftId: string;

  @Field(() => ID, { nullable: true })
  @Column({ name: "author_id", type: "uuid", nullable: true })
  authorId: string | null;

  @Field()
  @Column({ type: "text" })
  text: string;
}
