import { EntityManager } from "typeorm";
import { CoverageRequirement } from "./coverage.entity";
import { findWhere } from "../../common/entity-reads";

/** The SQL of coverage requirements. */

/** A location's requirements on the days of the range, by day and template. */
export function selectRequirementsBetween(
  manager: EntityManager,
  where: { organizationId: string; locationId: string; start: string; end: string },
): Promise<CoverageRequirement[]> {
  const { organizationId, locationId, start, end } = where;
  return findWhere(
    manager,
    CoverageRequirement,
    "organization_id = $1 AND location_id = $2 AND day BETWEEN $3 AND $4",
    [organizationId, locationId, start, end],
    {
      orderBy: "day, template_id",
    },
  );
}

export async function deleteRequirements(manager: EntityManager, organizationId: string, locationId: string, start: string, end: string): Promise<void> {
  await manager.query("DELETE FROM coverage_requirements WHERE organization_id = $1 AND location_id = $2 AND day BETWEEN $3 AND $4", [
    organizationId,
    locationId,
    start,
    end,
  ]);
}

export async function insertRequirements(manager: EntityManager, rows: Omit<CoverageRequirement, "id" | "createdAt" | "updatedAt">[]): Promise<void> {
  // In slices: a year of a dozen templates is thousands of rows, and a statement's parameters are bounded.
  for (let i = 0; i < rows.length; i += 2000) await manager.getRepository(CoverageRequirement).insert(rows.slice(i, i + 2000));
}
