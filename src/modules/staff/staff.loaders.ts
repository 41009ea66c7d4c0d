import { organizationLoader } from "../../graphql/request-loader";
import { StaffMember, StaffRole } from "./staff-member.entity";

export const staffLoader = organizationLoader<string, StaffMember | null>("staffMember", (services, organizationId, ids) =>
  services.staff.records.byIds(organizationId, ids),
);

export const staffRolesLoader = organizationLoader<string, StaffRole[]>("staffRoles", (services, organizationId, ids) =>
  services.staff.rolesOf(organizationId, ids),
);

export const staffLocationIdsLoader = organizationLoader<string, string[]>("staffLocationIds", (services, organizationId, ids) =>
  services.staff.locationIdsOf(organizationId, ids),
);
