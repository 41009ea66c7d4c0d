import { EntityManager } from "typeorm";
import { updateReturning } from "../../../database/returning";
import { AvailabilityRule } from "./availability-rule.entity";
import { AvailabilityStatus, RuleShape, Weekday } from "./availability-rule.rules";
import { findWhere } from "../../../common/entity-reads";

/** The SQL of availability rules and the organization's availability setting. */

type Queryable = Pick<EntityManager, "query">;

/** The approved rules of some staff members that may apply between two local days (one query). */
export async function selectApprovedRules(
  db: Queryable,
  organizationId: string,
  /** Null: everyone of the organization. */
  staffIds: readonly string[] | null,
  firstDate: string,
  lastDate: string,
): Promise<RuleShape[]> {
  if (staffIds?.length === 0) return [];
  const rows: {
    id: string;
    staff_id: string;
    kind: RuleShape["kind"];
    date: string | null;
    weekdays: Weekday[] | null;
    start_minute: number | null;
    end_minute: number | null;
    template_id: string | null;
    weight: number;
    effective_from: string | null;
    effective_until: string | null;
  }[] = await db.query(
    `SELECT id, worker_id AS staff_id, kind, to_char(date, 'YYYY-MM-DD') AS date, weekdays, start_minute, end_minute, template_id, weight,
            to_char(effective_from, 'YYYY-MM-DD') AS effective_from, to_char(effective_until, 'YYYY-MM-DD') AS effective_until
       FROM availability_rules
      WHERE organization_id = $1 AND ($2::uuid[] IS NULL OR worker_id = ANY($2::uuid[])) AND status = 'APPROVED'
        AND (date IS NULL OR date BETWEEN $3::date AND $4::date)
        AND (effective_from IS NULL OR effective_from <= $4::date)
        AND (effective_until IS NULL OR effective_until >= $3::date)
      ORDER BY worker_id, id`,
    [organizationId, staffIds && [...staffIds], firstDate, lastDate],
  );
  return rows.map((r) => ({
    id: r.id,
    staffId: r.staff_id,
    kind: r.kind,
    date: r.date,
    weekdays: r.weekdays,
    startMinute: r.start_minute,
    endMinute: r.end_minute,
    templateId: r.template_id,
    weight: r.weight,
    effectiveFrom: r.effective_from,
    effectiveUntil: r.effective_until,
  }));
}

/** A staff member's rules, by kind of schedule (one-day rules by day, then weekly ones). */
export function selectRulesOf(
  manager: EntityManager,
  organizationId: string,
  staffId: string,
  status: AvailabilityStatus | undefined,
): Promise<AvailabilityRule[]> {
  const ofStatus = status ? " AND status = $3" : "";
  return findWhere(manager, AvailabilityRule, `organization_id = $1 AND worker_id = $2${ofStatus}`, [organizationId, staffId, ...(status ? [status] : [])], {
    orderBy: "date ASC NULLS LAST, created_at, id",
  });
}

/** Moves a rule from one status to another only if it still has the first; false when it did not. */
export async function moveRuleStatus(
  manager: EntityManager,
  organizationId: string,
  id: string,
  from: AvailabilityStatus,
  to: AvailabilityStatus,
  decidedBy: string | null,
  decidedAt: Date,
): Promise<boolean> {
  const rows = await updateReturning(
    manager,
    `UPDATE availability_rules SET status = $4, decided_by = $5, decided_at = $6, updated_at = now()
      WHERE organization_id = $1 AND id = $2 AND status = $3 RETURNING id`,
    [organizationId, id, from, to, decidedBy, decidedAt],
  );
  return rows.length === 1;
}

/** Whether workers' rules need approval; an organization without a settings row does not ask for it. */
export async function selectRequiresApproval(db: Queryable, organizationId: string): Promise<boolean> {
  const rows: { requires_approval: boolean }[] = await db.query("SELECT requires_approval FROM availability_settings WHERE organization_id = $1", [
    organizationId,
  ]);
  return rows[0]?.requires_approval ?? false;
}

export async function upsertRequiresApproval(manager: EntityManager, organizationId: string, requiresApproval: boolean): Promise<void> {
  await manager.query(
    `INSERT INTO availability_settings (organization_id, requires_approval) VALUES ($1, $2)
       ON CONFLICT (organization_id) DO UPDATE SET requires_approval = EXCLUDED.requires_approval, updated_at = now()`,
    [organizationId, requiresApproval],
  );
}

/** The live staff members of the organization (of one location, or one person), by name. */
export async function selectActiveStaffIds(db: Queryable, organizationId: string, filter: { locationId?: string; staffId?: string }): Promise<string[]> {
  const rows: { id: string }[] = await db.query(
    `SELECT s.id FROM staff_members s
      WHERE s.organization_id = $1 AND s.deleted_at IS NULL AND s.active
        AND ($2::uuid IS NULL OR EXISTS (SELECT 1 FROM staff_locations l WHERE l.organization_id = $1 AND l.staff_id = s.id AND l.location_id = $2))
        AND ($3::uuid IS NULL OR s.id = $3)
      ORDER BY s.name, s.id`,
    [organizationId, filter.locationId ?? null, filter.staffId ?? null],
  );
  return rows.map((r) => r.id);
}

/** The time zone of a location of the organization, or of the organization itself; undefined for an unknown location. */
export async function selectTimeZone(db: Queryable, organizationId: string, locationId: string | null): Promise<string | undefined> {
  const rows: { timezone: string }[] = locationId
    ? await db.query("SELECT timezone FROM locations WHERE organization_id = $1 AND id = $2", [organizationId, locationId])
    : await db.query("SELECT timezone FROM organizations WHERE id = $1", [organizationId]);
  return rows[0]?.timezone;
}
