import { EntityManager } from "typeorm";

/** One policy type of each kind and the default settings row, where not there yet. */
export async function insertTimeOffDefaults(manager: EntityManager, organizationId: string, kinds: readonly string[]): Promise<void> {
  await manager.query(
    `INSERT INTO time_off_policy_types (organization_id, name, type) SELECT $1, kind, kind FROM unnest($2::text[]) AS kind ON CONFLICT DO NOTHING`,
    [organizationId, kinds],
  );
  await manager.query(`INSERT INTO time_off_settings (organization_id) VALUES ($1) ON CONFLICT DO NOTHING`, [organizationId]);
}
