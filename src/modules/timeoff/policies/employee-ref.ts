import { IsOptional, MaxLength } from "../../../common/input-checks";
import { Field, InputType } from "type-graphql";
import { EntityManager } from "typeorm";
import { requireInOrganization } from "../../../common/tenant-records";
import { invalidField } from "../../../errors/app-error";
import { staffIdsWhere } from "./policy.store";

/** A staff member named as the HR or payroll system knows them. */
@InputType()
export class EmployeeInput {
  @Field(() => String, { nullable: true, description: "The staff member's externalEmployeeId" })
  @IsOptional()
  @MaxLength(200)
  externalEmployeeId?: string | null;

  @Field(() => String, { nullable: true, description: "Informational; staff are found by externalEmployeeId, else payrollId" })
  @IsOptional()
  @MaxLength(200)
  name?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(200)
  payrollId?: string | null;
}

/**
 * The staff member (not deleted) a body names by `workerId` or by `employee` (fields of the object at
 * `at`, "" for the body itself): a 404 on workerId when the id names nobody, a 400 on employee when it
 * names nobody or someone else than workerId.
 */
export async function resolveStaffMember(
  manager: EntityManager,
  organizationId: string,
  ref: { workerId?: string | null; employee?: EmployeeInput | null },
  at: string,
): Promise<string | undefined> {
  const named = (name: string) => (at ? `${at}.${name}` : name);
  const field = named("employee");
  const found = new Set<string>();
  const find = async (column: string, value: string, label: string) => {
    const rows = await staffIdsWhere(manager, organizationId, column, value);
    if (rows.length !== 1)
      throw invalidField(field, rows.length ? `${label} "${value}" names more than one staff member` : `No staff member has ${label} "${value}"`);
    found.add(rows[0]);
  };
  if (ref.workerId != null) {
    const [id] = await requireInOrganization(manager, "staff_members", organizationId, [ref.workerId], named("workerId"), {
      where: "deleted_at IS NULL",
      message: () => `No staff member has id "${ref.workerId}"`,
    });
    found.add(id);
  }
  const employee = ref.employee;
  if (employee?.externalEmployeeId) await find("external_employee_id", employee.externalEmployeeId, "externalEmployeeId");
  else if (employee?.payrollId) await find("payroll_id", employee.payrollId, "payrollId");
  else if (employee) throw invalidField(`${field}.externalEmployeeId`, "employee needs an externalEmployeeId or a payrollId");
  if (found.size > 1) throw invalidField(field, "workerId and employee name different staff members");
  return [...found][0];
}
