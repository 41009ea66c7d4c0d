import { EntityManager } from "typeorm";

/** The SQL of the platform's own settings, shared by every process of the service. */

/** Stores `value` under `key` unless another process got there first; answers the kept value. */
export async function keepSetting(manager: EntityManager, key: string, value: string): Promise<{ value: string; created: boolean }> {
  const inserted = await manager.query("INSERT INTO platform_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING value", [key, value]);
  if (inserted.length) return { value, created: true };
  const [row] = await manager.query("SELECT value FROM platform_settings WHERE key = $1", [key]);
  return { value: row.value, created: false };
}
