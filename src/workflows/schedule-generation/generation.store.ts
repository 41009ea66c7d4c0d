import { EntityManager } from "typeorm";
import { updateReturning } from "../../database/returning";
import { GenerationProgress, GenerationResult, GenerationStatus, ScheduleGeneration } from "./generation.entity";
import { findOneByOrFail } from "../../common/entity-reads";

/** The SQL of generations: their queue and leases (what a generation reads comes through the modules' front doors). */

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
  return rows.length ? findOneByOrFail(manager, ScheduleGeneration, { id: rows[0].id }) : null;
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
