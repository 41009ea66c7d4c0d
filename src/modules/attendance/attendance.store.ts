import { EntityManager } from "typeorm";
import { ClockRules } from "./clock-rules/clock-rules.graphql";
import { clockRulesOf, ClockRulesRow } from "./clock-rules/clock-rules.store";
import { AttendancePolicy } from "./policy/attendance-policy.graphql";
import { AttendancePolicyRow, policyOf } from "./policy/attendance-policy.store";

/** A location of the organization with its time zone; undefined when it names none. */
export async function selectLocationZone(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
): Promise<{ id: string; timezone: string } | undefined> {
  const [row] = await manager.query("SELECT id, timezone FROM locations WHERE organization_id = $1 AND id = $2", [organizationId, locationId]);
  return row;
}

/** A published entry a punch belongs to: the worker's entry running at the shift's start, or starting within 12 hours of it, nearest start first. */
export interface MatchedEntry {
  id: string;
  start: Date;
  end: Date;
}

/**
 * SQL of the MatchedEntry of a shift starting at `at` (each argument an SQL expression; the entry is
 * `x`): found by span in the worker's index of entry ranges, where a test of the start alone read
 * every earlier entry. A punch and the missed clock-out check match alike.
 */
export function matchedEntrySql(columns: string, organizationId: string, workerId: string, at: string): string {
  return `SELECT ${columns} FROM schedule_entries x
           WHERE x.organization_id = ${organizationId} AND x.worker_id = ${workerId} AND x.deleted_at IS NULL
             AND tstzrange(x.start_time, x.end_time) && tstzrange(${at}, ${at} + interval '12 hours', '[]')
           ORDER BY abs(extract(epoch FROM x.start_time - ${at})), x.id LIMIT 1`;
}

/** What a punch is checked against. */
export interface PunchContext {
  /** The location's clock rules; undefined while it has none. */
  rules: ClockRules | undefined;
  policy: AttendancePolicy;
  entry: MatchedEntry | undefined;
}

/**
 * The location's clock rules, the organization's attendance policy and the worker's published
 * entry for a shift starting at `shiftStart`, in one statement: a punch reads all three, inside its
 * transaction, where every statement is a round trip while the worker's row is held.
 */
export async function selectPunchContext(
  manager: EntityManager,
  organizationId: string,
  locationId: string,
  staffId: string,
  shiftStart: Date,
): Promise<PunchContext> {
  const [row]: {
    rules: ClockRulesRow | null;
    policy: AttendancePolicyRow | null;
    entry_id: string | null;
    entry_start: Date | null;
    entry_end: Date | null;
  }[] = await manager.query(
    `SELECT (SELECT to_jsonb(c) FROM clock_rules c WHERE c.organization_id = $1 AND c.location_id = $2) AS rules,
              (SELECT to_jsonb(p) FROM attendance_policies p WHERE p.organization_id = $1) AS policy,
              e.id AS entry_id, e.start_time AS entry_start, e.end_time AS entry_end
         FROM (SELECT 1) AS one
         LEFT JOIN LATERAL (${matchedEntrySql("x.id, x.start_time, x.end_time", "$1", "$3", "$4::timestamptz")}) AS e ON true`,
    [organizationId, locationId, staffId, shiftStart],
  );
  return {
    rules: row.rules ? clockRulesOf(row.rules, locationId) : undefined,
    policy: policyOf(row.policy),
    entry: row.entry_id ? { id: row.entry_id, start: new Date(row.entry_start!), end: new Date(row.entry_end!) } : undefined,
  };
}
