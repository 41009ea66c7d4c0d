import { EntityManager } from "typeorm";
import { ShiftTemplate } from "./shift-template.entity";
import { findWhere } from "../../common/entity-reads";

/** The SQL of shift templates. */

/** The location's templates among `ids` (all of them without `ids`), by name. */
export function selectTemplates(manager: EntityManager, organizationId: string, locationId: string, ids?: string[]): Promise<ShiftTemplate[]> {
  const among = ids ? " AND id = ANY($3::uuid[])" : "";
  return findWhere(manager, ShiftTemplate, `organization_id = $1 AND location_id = $2${among}`, [organizationId, locationId, ...(ids ? [ids] : [])], {
    orderBy: "name, id",
  });
}

/** A deleted template leaves the lists of the templates that named it. */
export async function forgetSuccessor(manager: EntityManager, organizationId: string, locationId: string, templateId: string): Promise<void> {
  await manager.query(
    `UPDATE shift_templates SET cannot_be_followed_by = array_remove(cannot_be_followed_by, $3::uuid), updated_at = now()
      WHERE organization_id = $1 AND location_id = $2 AND $3::uuid = ANY (cannot_be_followed_by)`,
    [organizationId, locationId, templateId],
  );
}
