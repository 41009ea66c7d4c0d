import { EntityManager } from "typeorm";
import { unpackRows } from "../../../database/packed-rows";

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

/** Whom one shift is asked about: every active staff member when `staffIds` is null. */
export interface CandidateQuery {
  locationId: string;
  roleId: string;
  staffIds: readonly string[] | null;
}

const PICKED_COLUMNS = "q.idx, q.location_id, q.role_id, s.id, s.name, s.active, s.deleted_at, s.hourly_wage";
/** The queries, one row per query and person (`staff_id` null for "every active one"). */
const QUERIES = "q AS (SELECT * FROM unnest($2::int[], $3::uuid[], $4::uuid[], $5::uuid[]) AS q(idx, location_id, role_id, staff_id))";
/** The people a query names. */
const PICK_NAMED = `SELECT ${PICKED_COLUMNS} FROM q JOIN staff_members s ON s.organization_id = $1 AND s.id = q.staff_id`;
/** Every active staff member, for a query that names nobody. */
const PICK_EVERYONE = `SELECT ${PICKED_COLUMNS} FROM q JOIN staff_members s ON s.organization_id = $1 AND s.active AND s.deleted_at IS NULL
                        WHERE q.staff_id IS NULL`;
/**
 * Every active staff member for the one query asked (an open shift's or an entry's eligible staff),
 * in name order, packed in one row (database/packed-rows.ts): each `id wage hasRole`, and the ids of
 * the location's staff. Its location and role are plain parameters, which PostgreSQL plans around.
 */
const EVERYONE_FOR_ONE = `SELECT string_agg(concat_ws(' ', s.id, COALESCE(sr.hourly_wage, r.hourly_wage, s.hourly_wage, 0), (sr.staff_id IS NOT NULL)::int),
                                  ',' ORDER BY s.name, s.id) AS people,
                              (SELECT string_agg(l.staff_id::text, ',') FROM staff_locations l WHERE l.organization_id = $1 AND l.location_id = $2) AS at_location
                         FROM staff_members s
                         LEFT JOIN staff_roles sr ON sr.organization_id = $1 AND sr.staff_id = s.id AND sr.role_id = $3
                         LEFT JOIN roles r ON r.organization_id = $1 AND r.id = $3
                        WHERE s.organization_id = $1 AND s.active AND s.deleted_at IS NULL`;

async function selectEveryoneFor(db: Queryable, organizationId: string, query: CandidateQuery): Promise<CandidateRow[]> {
  const [row]: { people: string | null; at_location: string | null }[] = await db.query(EVERYONE_FOR_ONE, [organizationId, query.locationId, query.roleId]);
  const atLocation = new Set(row.at_location?.split(","));
  return unpackRows(row.people).map(([staffId, wage, hasRole]) => ({
    staffId,
    active: true,
    hasRole: hasRole === "1",
    atLocation: atLocation.has(staffId),
    wage,
  }));
}

/**
 * For each query, every active staff member, or those named (inactive and removed ones too), with
 * whether they hold the role and work at the location, and their wage for the role, ordered by
 * name: one statement for all the queries and all their people.
 */
export async function selectCandidates(db: Queryable, organizationId: string, queries: readonly CandidateQuery[]): Promise<CandidateRow[][]> {
  // One row per (query, named person), or one per query with no person for "every active one".
  const pairs = queries.flatMap((q, idx): { idx: number; q: CandidateQuery; staffId: string | null }[] =>
    q.staffIds ? [...new Set(q.staffIds)].map((staffId) => ({ idx, q, staffId })) : [{ idx, q, staffId: null }],
  );
  if (pairs.length === 1 && pairs[0].staffId === null) return [await selectEveryoneFor(db, organizationId, pairs[0].q)];
  // Only named people: no branch for everyone, whose estimate (the whole organization) would make
  // PostgreSQL read every staff member's roles and locations to answer for two of them.
  const picked = pairs.every((p) => p.staffId !== null) ? PICK_NAMED : `${PICK_NAMED} UNION ALL ${PICK_EVERYONE}`;
  const params = [organizationId, pairs.map((p) => p.idx), pairs.map((p) => p.q.locationId), pairs.map((p) => p.q.roleId), pairs.map((p) => p.staffId)];
  const rows: { idx: number; id: string; active: boolean; has_role: boolean; at_location: boolean; wage: string }[] = pairs.length
    ? await db.query(
        `WITH ${QUERIES}, picked AS (${picked})
         SELECT p.idx, p.id, p.active AND p.deleted_at IS NULL AS active, sr.staff_id IS NOT NULL AS has_role,
                EXISTS (SELECT 1 FROM staff_locations l WHERE l.organization_id = $1 AND l.staff_id = p.id AND l.location_id = p.location_id) AS at_location,
                COALESCE(sr.hourly_wage, r.hourly_wage, p.hourly_wage, 0)::text AS wage
           FROM picked p
           LEFT JOIN staff_roles sr ON sr.organization_id = $1 AND sr.staff_id = p.id AND sr.role_id = p.role_id
           LEFT JOIN roles r ON r.organization_id = $1 AND r.id = p.role_id
          ORDER BY p.idx, p.name, p.id`,
        params,
      )
    : [];
  const answer: CandidateRow[][] = queries.map(() => []);
  for (const r of rows) answer[r.idx].push({ staffId: r.id, active: r.active, hasRole: r.has_role, atLocation: r.at_location, wage: r.wage });
  return answer;
}

export interface EntrySpan {
  id: string;
  staffId: string;
  locationId: string;
  start: Date;
  end: Date;
  unpaidBreakMinutes: number;
}

/**
 * The published entries, at any location, of the staff members (null: everyone of the
 * organization) starting in [from, until): one statement, which callers asking about several
 * ranges give the span of all of them and sort out in memory.
 */
export async function selectEntriesAround(
  db: Queryable,
  organizationId: string,
  staffIds: readonly string[] | null,
  from: Date,
  until: Date,
): Promise<EntrySpan[]> {
  if (staffIds?.length === 0) return [];
  // Packed in one row (database/packed-rows.ts): around an open shift, every published entry of the organization.
  const [row]: { entries: string | null }[] = await db.query(
    `SELECT string_agg(concat_ws(' ', e.id, e.worker_id, e.location_id, floor(extract(epoch FROM e.start_time) * 1000), floor(extract(epoch FROM e.end_time) * 1000),
                                 COALESCE((SELECT sum(b.duration_minutes) FROM schedule_breaks b WHERE b.entry_id = e.id AND NOT b.paid), 0)),
                       ',' ORDER BY e.start_time, e.id) AS entries
       FROM schedule_entries e
      WHERE e.organization_id = $1 AND ($2::uuid[] IS NULL OR e.worker_id = ANY($2::uuid[])) AND e.deleted_at IS NULL AND e.start_time >= $3 AND e.start_time < $4`,
    [organizationId, staffIds && [...staffIds], from, until],
  );
  return unpackRows(row.entries).map(([id, staffId, locationId, start, end, unpaid]) => ({
    id,
    staffId,
    locationId,
    start: new Date(Number(start)),
    end: new Date(Number(end)),
    unpaidBreakMinutes: Number(unpaid),
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
