import { SelectQueryBuilder } from "typeorm";
import { StaffMember } from "./staff-member.entity";

/** The SQL of staff members. */

/** What the staff list narrows to: a location, a role, and whether those who left are shown. */
export interface StaffListFilter {
  locationId?: string;
  roleId?: string;
  includeInactive?: boolean;
}

/** Narrows a query of staff members (aliased `r`) to those the list shows. */
export function whereStaffListed(q: SelectQueryBuilder<StaffMember>, filter: StaffListFilter): void {
  if (!filter.includeInactive) q.andWhere("r.active AND r.deleted_at IS NULL");
  if (filter.locationId) q.andWhere("EXISTS (SELECT 1 FROM staff_locations sl WHERE sl.staff_id = r.id AND sl.location_id = :loc)", { loc: filter.locationId });
  if (filter.roleId) q.andWhere("EXISTS (SELECT 1 FROM staff_roles sr WHERE sr.staff_id = r.id AND sr.role_id = :role)", { role: filter.roleId });
}
