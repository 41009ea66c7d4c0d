import { EntityManager } from "typeorm";
import { AttendancePolicy } from "./attendance-policy.graphql";

export interface AttendancePolicyRow {
  late_grace_minutes: number;
  early_out_grace_minutes: number;
  no_show_after_minutes: number;
  missed_clock_out_after_minutes: number;
  /** numeric: a string from its column, a number from JSON. */
  long_shift_hours: string | number;
  updated_at: Date | string;
}

/** The figures an organization starts with, before it saves a policy. */
export const DEFAULT_POLICY = { lateGraceMinutes: 5, earlyOutGraceMinutes: 5, noShowAfterMinutes: 30, missedClockOutAfterMinutes: 60, longShiftHours: 12 };

export async function selectPolicy(manager: EntityManager, organizationId: string): Promise<AttendancePolicy> {
  const [row] = await manager.query("SELECT * FROM attendance_policies WHERE organization_id = $1", [organizationId]);
  return policyOf(row);
}

/** An `attendance_policies` row (from its columns or its `to_jsonb`) as the policy; the defaults, switched off, without one. */
export function policyOf(row: AttendancePolicyRow | null | undefined): AttendancePolicy {
  if (!row) return { ...DEFAULT_POLICY, enabled: false, updatedAt: null };
  return {
    lateGraceMinutes: row.late_grace_minutes,
    earlyOutGraceMinutes: row.early_out_grace_minutes,
    noShowAfterMinutes: row.no_show_after_minutes,
    missedClockOutAfterMinutes: row.missed_clock_out_after_minutes,
    longShiftHours: Number(row.long_shift_hours),
    enabled: true,
    updatedAt: new Date(row.updated_at),
  };
}

export async function savePolicy(manager: EntityManager, organizationId: string, policy: typeof DEFAULT_POLICY, now: Date): Promise<void> {
  await manager.query(
    `INSERT INTO attendance_policies (organization_id, late_grace_minutes, early_out_grace_minutes, no_show_after_minutes, missed_clock_out_after_minutes, long_shift_hours, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (organization_id) DO UPDATE SET late_grace_minutes = EXCLUDED.late_grace_minutes, early_out_grace_minutes = EXCLUDED.early_out_grace_minutes,
       no_show_after_minutes = EXCLUDED.no_show_after_minutes, missed_clock_out_after_minutes = EXCLUDED.missed_clock_out_after_minutes,
       long_shift_hours = EXCLUDED.long_shift_hours, updated_at = EXCLUDED.updated_at`,
    [
      organizationId,
      policy.lateGraceMinutes,
      policy.earlyOutGraceMinutes,
      policy.noShowAfterMinutes,
      policy.missedClockOutAfterMinutes,
      policy.longShiftHours,
      now,
    ],
  );
}
