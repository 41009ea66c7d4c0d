import { EntityManager } from "typeorm";
import { BreakType } from "./break-type.entity";
import { findWhere } from "../../common/entity-reads";

/** The SQL of break types. */

/** The live break types of many locations, by name. */
export function selectLiveBreakTypes(manager: EntityManager, organizationId: string, locationIds: readonly string[]): Promise<BreakType[]> {
  return findWhere(manager, BreakType, "organization_id = $1 AND location_id = ANY($2::uuid[]) AND deleted_at IS NULL", [organizationId, [...locationIds]], {
    orderBy: "name, id",
  });
}

/** A break type that staff must take: at least `durationMinutes` of it every `frequencyMinutes` worked. */
export interface MandatoryBreakRule {
  typeId: string;
  frequencyMinutes: number;
  durationMinutes: number;
}

/** The rules of the organization's live, enabled mandatory break types, by location. */
export async function selectMandatoryBreakRules(manager: EntityManager, organizationId: string): Promise<Map<string, MandatoryBreakRule[]>> {
  const rows: { id: string; location_id: string; frequency_minutes: number; duration_minutes: number }[] = await manager.query(
    `SELECT id, location_id, frequency_minutes, duration_minutes FROM break_types
     WHERE organization_id = $1 AND mandatory AND enabled AND deleted_at IS NULL AND frequency_minutes > 0`,
    [organizationId],
  );
  const rules = new Map<string, MandatoryBreakRule[]>();
  for (const r of rows)
    rules.set(r.location_id, [
      ...(rules.get(r.location_id) ?? []),
      { typeId: r.id, frequencyMinutes: r.frequency_minutes, durationMinutes: r.duration_minutes },
    ]);
  return rules;
}
