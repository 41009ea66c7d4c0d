import { EntityManager, SelectQueryBuilder } from "typeorm";
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

/** A staff member a schedule may be planned for at a location: whether they are active and assigned there, and their roles. */
export interface PlannableStaffMember {
  staffId: string;
  active: boolean;
  atLocation: boolean;
  /** Their own hourly wage (exact numeric text), or null. */
  hourlyWage: string | null;
  /** The roles they hold, each with their wage for it (exact numeric text), or null without one. */
  roles: { roleId: string; hourlyWage: string | null }[];
}

/**
 * The organization's active staff members assigned to the location, or those named (inactive ones
 * too, but not removed ones), by name, with their roles: two statements.
 */
export async function selectPlannableStaff(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  staffIds: string[] | null,
): Promise<PlannableStaffMember[]> {
  const people: { id: string; active: boolean; at_location: boolean; wage: string | null }[] = await manager.query(
    `SELECT s.id, s.active AND s.deleted_at IS NULL AS active, s.hourly_wage::text AS wage,
            EXISTS (SELECT 1 FROM staff_locations l WHERE l.organization_id = $1 AND l.staff_id = s.id AND l.location_id = $2) AS at_location
       FROM staff_members s
      WHERE s.organization_id = $1 AND s.deleted_at IS NULL
        AND ($3::uuid[] IS NULL AND s.active AND EXISTS (SELECT 1 FROM staff_locations l WHERE l.organization_id = $1 AND l.staff_id = s.id AND l.location_id = $2)
             OR s.id = ANY ($3::uuid[]))
      ORDER BY s.name, s.id`,
    [organizationId, locationId, staffIds],
  );
  const roles: { staff_id: string; role_id: string; wage: string | null }[] = await manager.query(
    `SELECT staff_id, role_id, hourly_wage::text AS wage FROM staff_roles WHERE organization_id = $1 AND staff_id = ANY ($2::uuid[]) ORDER BY role_id`,
    [organizationId, people.map((p) => p.id)],
  );
  const byStaff = new Map<string, PlannableStaffMember>(
    people.map((p) => [p.id, { staffId: p.id, active: p.active, atLocation: p.at_location, hourlyWage: p.wage, roles: [] }]),
  );
  for (const r of roles) byStaff.get(r.staff_id)?.roles.push({ roleId: r.role_id, hourlyWage: r.wage });
  return [...byStaff.values()];
}
