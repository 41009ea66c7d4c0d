import { Field, Float, ID, ObjectType } from "type-graphql";
import { Column, Entity, PrimaryColumn } from "typeorm";
import { numericColumn, TenantRecord } from "../../common/entity-columns";

@ObjectType({ simpleResolvers: true, description: "A person who works for the organization" })
@Entity("staff_members")
export class StaffMember extends TenantRecord {
  @Field()
  @Column({ type: "text" })
  name: string;

  @Field(() => String, { nullable: true, description: "The employee's id in the HR or payroll system; unique in the organization" })
  @Column({ name: "external_employee_id", type: "text", nullable: true })
  externalEmployeeId: string | null;

  @Field(() => String, { nullable: true })
  @Column({ name: "payroll_id", type: "text", nullable: true })
  payrollId: string | null;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  email: string | null;

  @Field(() => Float, { nullable: true, description: "Default hourly wage, used for roles without a wage of their own" })
  @Column({ name: "hourly_wage", type: "numeric", nullable: true, transformer: numericColumn })
  hourlyWage: number | null;

  @Field(() => ID)
  @Column({ name: "access_role_id", type: "uuid" })
  accessRoleId: string;

  @Field({ description: "False once the staff member has left (or was deleted)" })
  @Column({ type: "boolean", default: true })
  active: boolean;

  @Field(() => Date, { nullable: true })
  @Column({ name: "deleted_at", type: "timestamptz", nullable: true })
  deletedAt: Date | null;
}

/** A role a staff member may work, with their own wage for it. */
@ObjectType({ simpleResolvers: true })
@Entity("staff_roles")
export class StaffRole {
  @Column({ name: "organization_id", type: "uuid" })
  organizationId: string;

  @PrimaryColumn({ name: "staff_id", type: "uuid" })
  staffId: string;

  @Field(() => ID)
  @PrimaryColumn({ name: "role_id", type: "uuid" })
  roleId: string;

  @Field(() => Float, { nullable: true })
  @Column({ name: "hourly_wage", type: "numeric", nullable: true, transformer: numericColumn })
  hourlyWage: number | null;
}

/** A location a staff member works at. */
@Entity("staff_locations")
export class StaffLocation {
  @Column({ name: "organization_id", type: "uuid" })
  organizationId: string;

  @PrimaryColumn({ name: "staff_id", type: "uuid" })
  staffId: string;

  @PrimaryColumn({ name: "location_id", type: "uuid" })
  locationId: string;
}
