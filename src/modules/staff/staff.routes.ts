import { crudRoutes } from "../../rest/crud-routes";

export const staffRoutes = crudRoutes({
  tag: "Staff",
  collection: "staff",
  label: "staff member",
  fields:
    "id organizationId name externalEmployeeId payrollId email hourlyWage accessRoleId active roleIds locationIds roleWages { roleId hourlyWage } createdAt updatedAt deletedAt",
  listArgs: { locationId: "ID", roleId: "ID", includeInactive: "Boolean" },
  names: { list: "staffMembers", one: "staffMember", create: "createStaffMember", update: "updateStaffMember", delete: "deleteStaffMember", input: "Staff" },
});
