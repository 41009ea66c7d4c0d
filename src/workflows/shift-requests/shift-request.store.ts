import { EntityManager } from "typeorm";
import { updateReturning } from "../../database/returning";
import { LIVE_STATUSES, ShiftRequestStatus } from "./shift-request.entity";

/** The SQL of shift requests. */

const LIVE = `(${LIVE_STATUSES.map((s) => `'${s}'`).join(", ")})`;

/**
 * An entry as a request saw it: still live, still its worker's, at the same times. A lookup of the
 * one entry by its key for each live request: written as EXISTS, inside an OR, PostgreSQL may
 * answer it with a hash of every live entry of every organization, read at each call.
 */
const UNCHANGED = (entry: string, worker: string, start: string, end: string) =>
  `((SELECT e.worker_id = ${worker} AND e.start_time = ${start} AND e.end_time = ${end}
       FROM schedule_entries e WHERE e.organization_id = r.organization_id AND e.id = ${entry} AND e.deleted_at IS NULL) IS TRUE)`;

/**
 * Marks EXPIRED every live request of the organization (or of all, with null) whose entry, or
 * the recipient's entry of a swap, started, changed hands, moved or went away: one statement.
 * One text for an organization and another for all: a single text with "$1 IS NULL OR" would be
 * planned anew at every change of a request, as no plan serves both.
 */
export async function expireStaleRequests(manager: EntityManager, organizationId: string | null, now: Date): Promise<number> {
  const rows = await updateReturning(
    manager,
    `UPDATE shift_requests r SET status = 'EXPIRED', updated_at = $2
      WHERE ${organizationId === null ? "$1::uuid IS NULL" : "r.organization_id = $1"} AND r.status IN ${LIVE}
        AND (r.entry_start <= $2 OR NOT ${UNCHANGED("r.entry_id", "r.requester_id", "r.entry_start", "r.entry_end")}
             OR (r.recipient_entry_id IS NOT NULL AND (r.recipient_entry_start <= $2
                 OR NOT ${UNCHANGED("r.recipient_entry_id", "r.recipient_id", "r.recipient_entry_start", "r.recipient_entry_end")})))
      RETURNING r.id`,
    [organizationId, now],
  );
  return rows.length;
}

/**
 * Moves a request from one of `from` to `to` (with `set`) only if it still has it: of two calls
 * that race (two workers accepting one open cover), one moves it and the other finds nothing.
 */
export async function moveRequestStatus(
  manager: EntityManager,
  organizationId: string,
  id: string,
  from: ShiftRequestStatus[],
  to: ShiftRequestStatus,
  set: {
    recipientId?: string;
    decidedBy?: string | null;
    decidedAt?: Date;
    openShiftId?: string;
    acknowledgedReason?: string;
    acknowledgedViolations?: unknown;
  },
  now: Date,
): Promise<boolean> {
  const rows = await updateReturning(
    manager,
    `UPDATE shift_requests SET status = $4, updated_at = $5,
            recipient_id = COALESCE($6, recipient_id),
            decided_by = CASE WHEN $7 THEN $8::uuid ELSE decided_by END,
            decided_at = COALESCE($9, decided_at),
            open_shift_id = COALESCE($10, open_shift_id),
            acknowledged_reason = COALESCE($11, acknowledged_reason),
            acknowledged_violations = COALESCE($12::jsonb, acknowledged_violations)
      WHERE organization_id = $1 AND id = $2 AND status = ANY($3::text[]) RETURNING id`,
    [
      organizationId,
      id,
      from,
      to,
      now,
      set.recipientId ?? null,
      set.decidedBy !== undefined,
      set.decidedBy ?? null,
      set.decidedAt ?? null,
      set.openShiftId ?? null,
      set.acknowledgedReason ?? null,
      set.acknowledgedViolations === undefined ? null : JSON.stringify(set.acknowledgedViolations),
    ],
  );
  return rows.length === 1;
}

/** A published entry as a request needs it, locked until commit with `lock`. */
export interface EntryRow {
  id: string;
  locationId: string;
  timeZone: string;
  staffId: string;
  roleId: string;
  start: Date;
  end: Date;
  breakTypeIds: string[];
  unpaidBreakMinutes: number;
  note: string | null;
}

export async function selectEntries(manager: EntityManager, organizationId: string, ids: string[], lock: boolean): Promise<EntryRow[]> {
  const rows: {
    id: string;
    location_id: string;
    timezone: string;
    worker_id: string;
    role_id: string;
    start_time: Date;
    end_time: Date;
    note: string | null;
    break_type_ids: string[] | null;
    unpaid: number;
  }[] = await manager.query(
    `SELECT e.id, e.location_id, l.timezone, e.worker_id, e.role_id, e.start_time, e.end_time, e.note,
              (SELECT array_agg(b.break_type_id ORDER BY b.position) FROM schedule_breaks b WHERE b.entry_id = e.id) AS break_type_ids,
              COALESCE((SELECT sum(b.duration_minutes) FROM schedule_breaks b WHERE b.entry_id = e.id AND NOT b.paid), 0)::int AS unpaid
         FROM schedule_entries e JOIN locations l ON l.organization_id = e.organization_id AND l.id = e.location_id
        WHERE e.organization_id = $1 AND e.id = ANY($2::uuid[]) AND e.deleted_at IS NULL
        ORDER BY e.id ${lock ? "FOR UPDATE OF e" : ""}`,
    [organizationId, ids],
  );
  return rows.map((r) => ({
    id: r.id,
    locationId: r.location_id,
    timeZone: r.timezone,
    staffId: r.worker_id,
    roleId: r.role_id,
    start: new Date(r.start_time),
    end: new Date(r.end_time),
    breakTypeIds: r.break_type_ids ?? [],
    unpaidBreakMinutes: r.unpaid,
    note: r.note,
  }));
}

/** Whether the location asks a manager to approve its requests (a location without a row does). */
export async function selectRequiresApproval(manager: Pick<EntityManager, "query">, organizationId: string, locationId: string): Promise<boolean> {
  const rows: { requires_approval: boolean }[] = await manager.query(
    "SELECT requires_approval FROM shift_request_settings WHERE organization_id = $1 AND location_id = $2",
    [organizationId, locationId],
  );
  return rows[0]?.requires_approval ?? true;
}

export async function upsertRequiresApproval(
  manager: Pick<EntityManager, "query">,
  organizationId: string,
  locationId: string,
  requiresApproval: boolean,
): Promise<void> {
  await manager.query(
    `INSERT INTO shift_request_settings (organization_id, location_id, requires_approval) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id, location_id) DO UPDATE SET requires_approval = EXCLUDED.requires_approval, updated_at = now()`,
    [organizationId, locationId, requiresApproval],
  );
}
