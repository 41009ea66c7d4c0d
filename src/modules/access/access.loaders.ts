import { requestLoader } from "../../graphql/request-loader";
import { byKeys } from "../../loaders/loaders";
import { AccessRole } from "./access-role.entity";

/** An organization has few access roles: one query reads them all. */
export const accessRoleLoader = requestLoader<string, AccessRole | null>("accessRole", async (services, actor, ids) =>
  byKeys(ids, await services.access.listAccessRoles(actor), (r) => r.id),
);
