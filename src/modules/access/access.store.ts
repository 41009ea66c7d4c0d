import { DataSource } from "typeorm";

/** The SQL of access: who holds an access role, and whether an API key's token still stands. */

/** How many staff members hold the access role. */
export async function holdersOfAccessRole(db: DataSource, organizationId: string, accessRoleId: string): Promise<number> {
  const [{ count }] = await db.query("SELECT count(*)::int AS count FROM staff_members WHERE organization_id = $1 AND access_role_id = $2", [
    organizationId,
    accessRoleId,
  ]);
  return count;
}

/** The staff member (none or one row) while active and not deleted. */
export function activeStaffMember(db: DataSource, organizationId: string, staffId: string): Promise<{ id: string }[]> {
  return db.query("SELECT id FROM staff_members WHERE id = $1 AND organization_id = $2 AND active AND deleted_at IS NULL", [staffId, organizationId]);
}

/** Whether a token's API key is revoked, whether its staff member (if any) is still active, and that one's permissions. */
export async function tokenStanding(
  db: DataSource,
  apiKeyId: string,
  organizationId: string,
  staffId: string | null,
): Promise<{ revoked: boolean; staff_ok: boolean | null; permissions: string[] | null } | undefined> {
  const rows: { revoked: boolean; staff_ok: boolean | null; permissions: string[] | null }[] = await db.query(
    `SELECT k.revoked_at IS NOT NULL AS revoked,
            (s.id IS NOT NULL AND s.active AND s.deleted_at IS NULL) AS staff_ok,
            r.permissions
       FROM api_keys k
       LEFT JOIN staff_members s ON s.id = $3 AND s.organization_id = k.organization_id
       LEFT JOIN access_roles r ON r.id = s.access_role_id AND r.organization_id = k.organization_id
      WHERE k.id = $1 AND k.organization_id = $2`,
    [apiKeyId, organizationId, staffId],
  );
  return rows[0];
}
