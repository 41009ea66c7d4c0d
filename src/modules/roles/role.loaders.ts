import { organizationLoader } from "../../graphql/request-loader";
import { Role } from "./role.entity";

export const roleLoader = organizationLoader<string, Role | null>("role", (services, organizationId, ids) => services.roles.records.byIds(organizationId, ids));
