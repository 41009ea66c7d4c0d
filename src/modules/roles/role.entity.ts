import { Field, Float, ObjectType } from "type-graphql";
import { Column, Entity } from "typeorm";
import { numericColumn, TenantRecord } from "../../common/entity-columns";

@ObjectType({ simpleResolvers: true, description: "A job staff members do (cook, cashier, nurse), with its default hourly wage" })
@Entity("roles")
export class Role extends TenantRecord {
  @Field()
  @Column({ type: "text" })
  name: string;

  @Field(() => Float, { nullable: true, description: "Default hourly wage, used where a staff member has no wage of their own for this role" })
  @Column({ name: "hourly_wage", type: "numeric", nullable: true, transformer: numericColumn })
  hourlyWage: number | null;
}
