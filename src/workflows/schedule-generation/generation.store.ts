import { EntityManager } from "typeorm";
import { updateReturning } from "../../database/returning";
import { GenerationProgress, GenerationResult, GenerationStatus, ScheduleGeneration } from "./generation.entity";

/**
 * The SQL of generations: their queue and leases, and the reads a generation's problem is built
 * from that no module's front door answers yet (people with their roles and wages, and everyone's
 * planned shifts around the range).
 */

const LEASE = "clock_timestamp() + make_interval(secs => $2)";

/**
 * Takes the oldest generation no live process holds: a queued one, or a running one whose lease
 * ran out (its process died). SKIP LOCKED: two processes never take the same one.
 */
export async function claimGeneration(manager: EntityManager, processId: string, leaseSeconds: number, now: Date): Promise<ScheduleGeneration | null> {
  const rows = await updateReturning<{ id: string }>(
    manager,
    `UPDATE schedule_generations SET status = 'RUNNING', claimed_by = $1, lease_expires_at = ${LEASE}, attempts = attempts + 1,
            started_at = COALESCE(started_at, $3), updated_at = $3
      WHERE id = (SELECT id FROM schedule_generations
                   WHERE status IN ('QUEUED', 'RUNNING') AND (status = 'QUEUED' OR lease_expires_at < clock_timestamp())
                   ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id`,
    [processId, leaseSeconds, now],
  );
  return rows.length ? manager.getRepository(ScheduleGeneration).findOneByOrFail({ id: rows[0].id }) : null;
}

/** Renews the lease and records progress; answers whether a cancel was asked, or null when the lease is lost. */
export async function renewLease(
  manager: EntityManager,
  id: string,
  processId: string,
  leaseSeconds: number,
  progress: GenerationProgress | null,
): Promise<{ cancelRequested: boolean } | null> {
  const rows = await updateReturning<{ cancel_requested: boolean }>(
    manager,
    `UPDATE schedule_generations SET lease_expires_at = ${LEASE}, progress = COALESCE($4::jsonb, progress)
      WHERE id = $3 AND claimed_by = $1 AND status = 'RUNNING' RETURNING cancel_requested`,
    [processId, leaseSeconds, id, progress === null ? null : JSON.stringify(progress)],
  );
  return rows.length ? { cancelRequested: rows[0].cancel_requested } : null;
}

/** Ends a generation this process holds; false when it no longer holds it (then nothing of the caller's transaction may stand). */
export async function finishGeneration(
  manager: EntityManager,
  id: string,
  processId: string,
  outcome: { status: GenerationStatus; result: GenerationResult | null; error: string | null; now: Date },
): Promise<boolean> {
  const rows = await updateReturning<{ id: string }>(
    manager,
    `UPDATE schedule_generations SET status = $3, result = $4::jsonb, error = $5, finished_at = $6, updated_at = $6, lease_expires_at = NULL
      WHERE id = $1 AND claimed_by = $2 AND status = 'RUNNING' RETURNING id`,
    [id, processId, outcome.status, outcome.result === null ? null : JSON.stringify(outcome.result), outcome.error, outcome.now],
  );
  return rows.length > 0;
}

/** Cancels a queued generation at once, or asks the process running one to stop; answers the row. */
export async function requestCancel(manager: EntityManager, organizationId: string, id: string, now: Date): Promise<{ status: GenerationStatus } | null> {
  const rows = await updateReturning<{ status: GenerationStatus }>(
    manager,
    `UPDATE schedule_generations
        SET cancel_requested = true, updated_at = $3,
            status = CASE status WHEN 'QUEUED' THEN 'CANCELLED' ELSE status END,
            finished_at = CASE status WHEN 'QUEUED' THEN $3::timestamptz ELSE finished_at END
      WHERE organization_id = $1 AND id = $2 AND status IN ('QUEUED', 'RUNNING') RETURNING status`,
    [organizationId, id, now],
  );
  return rows[0] ?? null;
}

/** A staff member who may be planned at the location, with their roles and the wage of each. */
export interface PlannablePerson {
  staffId: string;
  active: boolean;
  atLocation: boolean;
  /** Role id → hourly wage (exact numeric text, or null without one). */
  wages: Map<string, string | null>;
}

/** The organization's staff members at the location (or those named), with roles and wages: two statements. */
export async function selectPeople(manager: EntityManager, organizationId: string, locationId: string, staffIds: string[] | null): Promise<PlannablePerson[]> {
  const people: { id: string; active: boolean; at_location: boolean }[] = await manager.query(
    `SELECT s.id, s.active AND s.deleted_at IS NULL AS active,
            EXISTS (SELECT 1 FROM staff_locations l WHERE l.organization_id = $1 AND l.staff_id = s.id AND l.location_id = $2) AS at_location
       FROM staff_members s
      WHERE s.organization_id = $1 AND s.deleted_at IS NULL
        AND ($3::uuid[] IS NULL AND s.active AND EXISTS (SELECT 1 FROM staff_locations l WHERE l.organization_id = $1 AND l.staff_id = s.id AND l.location_id = $2)
             OR s.id = ANY ($3::uuid[]))
      ORDER BY s.name, s.id`,
    [organizationId, locationId, staffIds],
  );
  const roles: { staff_id: string; role_id: string; wage: string | null }[] = await manager.query(
    `SELECT sr.staff_id, sr.role_id, COALESCE(sr.hourly_wage, s.hourly_wage, r.hourly_wage)::text AS wage
       FROM staff_roles sr JOIN staff_members s ON s.organization_id = sr.organization_id AND s.id = sr.staff_id
       JOIN roles r ON r.organization_id = sr.organization_id AND r.id = sr.role_id
      WHERE sr.organization_id = $1 AND sr.staff_id = ANY ($2::uuid[])`,
    [organizationId, people.map((p) => p.id)],
  );
  const byStaff = new Map(people.map((p) => [p.id, { staffId: p.id, active: p.active, atLocation: p.at_location, wages: new Map<string, string | null>() }]));
  for (const r of roles) byStaff.get(r.staff_id)?.wages.set(r.role_id, r.wage);
  return [...byStaff.values()];
}

/** A shift of one of the people, planned anywhere: a published entry or a draft that adds or changes one. */
export interface PlannedShiftRow {
  staffId: string;
  locationId: string;
  templateId: string | null;
  startsAt: Date;
  endsAt: Date;
  draft: boolean;
}

/**
 * The people's published entries and drafts that start in [from, to): everything a new shift must
 * fit around. Without `replacedLocationId`'s drafts when they are about to be replaced.
 */
export async function selectPlannedShifts(
  manager: EntityManager,
  organizationId: string,
  staffIds: string[],
  bounds: { from: Date; to: Date },
  replacedLocationId: string | null,
): Promise<PlannedShiftRow[]> {
  const rows: { worker_id: string; location_id: string; template_id: string | null; start_time: Date; end_time: Date; draft: boolean }[] = await manager.query(
    `SELECT worker_id, location_id, template_id, start_time, end_time, false AS draft FROM schedule_entries
      WHERE organization_id = $1 AND worker_id = ANY ($2::uuid[]) AND deleted_at IS NULL AND start_time >= $3 AND start_time < $4
        AND NOT EXISTS (SELECT 1 FROM schedule_drafts d WHERE d.organization_id = $1 AND d.entry_id = schedule_entries.id
                          AND (d.location_id IS DISTINCT FROM $5::uuid))
     UNION ALL
     SELECT worker_id, location_id, template_id, start_time, end_time, true FROM schedule_drafts
      WHERE organization_id = $1 AND worker_id = ANY ($2::uuid[]) AND action <> 'REMOVE' AND start_time >= $3 AND start_time < $4
        AND location_id IS DISTINCT FROM $5::uuid`,
    [organizationId, staffIds, bounds.from, bounds.to, replacedLocationId],
  );
  return rows.map((r) => ({
    staffId: r.worker_id,
    locationId: r.location_id,
    templateId: r.template_id,
    startsAt: new Date(r.start_time),
    endsAt: new Date(r.end_time),
    draft: r.draft,
  }));
}
