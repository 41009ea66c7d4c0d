import { requestLoader } from "../../graphql/request-loader";
import { Role } from "./role.entity";

export const roleLoader = requestLoader<string, Role | null>("role", (services, actor, ids) => services.roles.records.byIds(actor.organizationId, ids));
