import { EntityManager } from "typeorm";

/** The SQL of roles. */

/** Each named role's own hourly wage (exact numeric text), or null without one. */
export async function selectRoleWages(manager: EntityManager, organizationId: string, roleIds: string[]): Promise<Map<string, string | null>> {
  const rows: { id: string; wage: string | null }[] = await manager.query(
    `SELECT id, hourly_wage::text AS wage FROM roles WHERE organization_id = $1 AND id = ANY ($2::uuid[])`,
    [organizationId, roleIds],
  );
  return new Map(rows.map((r) => [r.id, r.wage]));
}
