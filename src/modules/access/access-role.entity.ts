import { Field, ObjectType } from "type-graphql";
import { Column, Entity } from "typeorm";
import { TenantRecord } from "../../common/entity-columns";

@ObjectType({ simpleResolvers: true, description: "A named set of permissions; every staff member has one" })
@Entity("access_roles")
export class AccessRole extends TenantRecord {
  @Field()
  @Column({ type: "text" })
  name: string;

  @Field(() => [String])
  @Column({ type: "text", array: true })
  permissions: string[];

  @Field({ description: "One of the roles every organization starts with (Admin, Manager, Worker)" })
  @Column({ name: "is_system", type: "boolean", default: false })
  isSystem: boolean;
}
