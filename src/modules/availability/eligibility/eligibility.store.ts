import { EntityManager } from "typeorm";

/** The SQL eligibility reads: the candidates and their published entries around the shift. */

type Queryable = Pick<EntityManager, "query">;

export interface CandidateRow {
  staffId: string;
  active: boolean;
  hasRole: boolean;
  atLocation: boolean;
  /** The regular rate for the role, exact: the worker's wage for it, else the role's, else the worker's own. */
  wage: string;
}

/**
 * Every active staff member, or those named (inactive and removed ones too), with whether they hold the role and work
 * at the location, and their wage for the role: one statement for all of them.
 */
export async function selectCandidates(
  db: Queryable,
  organizationId: string,
  locationId: string,
  roleId: string,
  staffIds: readonly string[] | null,
): Promise<CandidateRow[]> {
  const rows: { id: string; active: boolean; has_role: boolean; at_location: boolean; wage: string }[] = await db.query(
    `SELECT s.id, s.active AND s.deleted_at IS NULL AS active, sr.staff_id IS NOT NULL AS has_role,
            EXISTS (SELECT 1 FROM staff_locations l WHERE l.organization_id = $1 AND l.staff_id = s.id AND l.location_id = $2) AS at_location,
            COALESCE(sr.hourly_wage, r.hourly_wage, s.hourly_wage, 0)::text AS wage
       FROM staff_members s
       LEFT JOIN staff_roles sr ON sr.organization_id = $1 AND sr.staff_id = s.id AND sr.role_id = $3
       LEFT JOIN roles r ON r.organization_id = $1 AND r.id = $3
      WHERE s.organization_id = $1
        AND (CASE WHEN $4::uuid[] IS NULL THEN s.active AND s.deleted_at IS NULL ELSE s.id = ANY($4::uuid[]) END)
      ORDER BY s.name, s.id`,
    [organizationId, locationId, roleId, staffIds ? [...staffIds] : null],
  );
  return rows.map((r) => ({ staffId: r.id, active: r.active, hasRole: r.has_role, atLocation: r.at_location, wage: r.wage }));
}

export interface EntrySpan {
  id: string;
  staffId: string;
  locationId: string;
  start: Date;
  end: Date;
  unpaidBreakMinutes: number;
}

/** The published entries of the staff members starting in [from, until), at any location: one statement. */
export async function selectEntriesAround(db: Queryable, organizationId: string, staffIds: readonly string[], from: Date, until: Date): Promise<EntrySpan[]> {
  if (staffIds.length === 0) return [];
  const rows: { id: string; staff_id: string; location_id: string; start_time: Date; end_time: Date; unpaid: number }[] = await db.query(
    `SELECT e.id, e.worker_id AS staff_id, e.location_id, e.start_time, e.end_time,
            COALESCE((SELECT sum(b.duration_minutes) FROM schedule_breaks b WHERE b.entry_id = e.id AND NOT b.paid), 0)::int AS unpaid
       FROM schedule_entries e
      WHERE e.organization_id = $1 AND e.worker_id = ANY($2::uuid[]) AND e.deleted_at IS NULL AND e.start_time >= $3 AND e.start_time < $4
      ORDER BY e.start_time, e.id`,
    [organizationId, [...staffIds], from, until],
  );
  return rows.map((r) => ({
    id: r.id,
    staffId: r.staff_id,
    locationId: r.location_id,
    start: new Date(r.start_time),
    end: new Date(r.end_time),
    unpaidBreakMinutes: r.unpaid,
  }));
}

export interface StoredShift {
  id: string;
  locationId: string;
  timeZone: string;
  roleId: string;
  start: Date;
  end: Date;
  unpaidBreakMinutes: number;
  /** The entry's worker (null for an open shift). */
  staffId: string | null;
}

/** A published entry or a live open shift of the location, with its unpaid break minutes; undefined when there is none. */
export async function selectShift(
  db: Queryable,
  organizationId: string,
  locationId: string,
  id: string,
  kind: "entry" | "open shift",
): Promise<StoredShift | undefined> {
  const sql =
    kind === "entry"
      ? `SELECT e.id, e.location_id, l.timezone, e.role_id, e.start_time, e.end_time, e.worker_id AS staff_id,
                COALESCE((SELECT sum(b.duration_minutes) FROM schedule_breaks b WHERE b.entry_id = e.id AND NOT b.paid), 0)::int AS unpaid
           FROM schedule_entries e JOIN locations l ON l.organization_id = e.organization_id AND l.id = e.location_id
          WHERE e.organization_id = $1 AND e.location_id = $2 AND e.id = $3 AND e.deleted_at IS NULL`
      : `SELECT o.id, o.location_id, l.timezone, o.role_id, o.start_time, o.end_time, NULL::uuid AS staff_id,
                COALESCE((SELECT sum(t.duration_minutes) FROM break_types t WHERE t.organization_id = $1 AND t.id = ANY(o.break_type_ids) AND NOT t.paid), 0)::int AS unpaid
           FROM open_shifts o JOIN locations l ON l.organization_id = o.organization_id AND l.id = o.location_id
          WHERE o.organization_id = $1 AND o.location_id = $2 AND o.id = $3`;
  const [row]: {
    id: string;
    location_id: string;
    timezone: string;
    role_id: string;
    start_time: Date;
    end_time: Date;
    staff_id: string | null;
    unpaid: number;
  }[] = await db.query(sql, [organizationId, locationId, id]);
  return (
    row && {
      id: row.id,
      locationId: row.location_id,
      timeZone: row.timezone,
      roleId: row.role_id,
      start: new Date(row.start_time),
      end: new Date(row.end_time),
      unpaidBreakMinutes: row.unpaid,
      staffId: row.staff_id,
    }
  );
}
