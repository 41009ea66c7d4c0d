import { requestLoader } from "../../graphql/request-loader";
import { StaffMember, StaffRole } from "./staff-member.entity";

export const staffLoader = requestLoader<string, StaffMember | null>("staffMember", (services, actor, ids) =>
  services.staff.records.byIds(actor.organizationId, ids),
);

export const staffRolesLoader = requestLoader<string, StaffRole[]>("staffRoles", (services, actor, ids) => services.staff.rolesOf(actor.organizationId, ids));

export const staffLocationIdsLoader = requestLoader<string, string[]>("staffLocationIds", (services, actor, ids) =>
  services.staff.locationIdsOf(actor.organizationId, ids),
);
