import { crudRoutes } from "../../rest/crud-routes";

export const roleRoutes = crudRoutes({
  tag: "Roles",
  collection: "roles",
  label: "role",
  fields: "id organizationId name hourlyWage createdAt updatedAt",
  names: { list: "roles", one: "role", create: "createRole", update: "updateRole", delete: "deleteRole", input: "Role" },
});
