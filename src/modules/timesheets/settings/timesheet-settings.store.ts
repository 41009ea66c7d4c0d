import { EntityManager } from "typeorm";
import { UpdateTimesheetSettingsInput } from "./timesheet-settings.graphql";

/** The SQL of timesheet settings. */

const COLUMNS: Record<keyof UpdateTimesheetSettingsInput, string> = {
  weeklyOvertimeHours: "weekly_overtime_hours",
  dailyOvertimeHours: "daily_overtime_hours",
  overtimeRate: "overtime_rate",
  weekStart: "week_start",
};

/** Stores the settings given (the defaults for the others on first change), in one statement: no lost update between two changes. */
export async function upsertTimesheetSettings(manager: EntityManager, organizationId: string, input: UpdateTimesheetSettingsInput): Promise<void> {
  const given = (Object.keys(COLUMNS) as (keyof UpdateTimesheetSettingsInput)[]).filter((k) => input[k] !== undefined);
  const columns = given.map((k) => COLUMNS[k]);
  await manager.query(
    `INSERT INTO timesheet_settings (organization_id${columns.map((c) => `, ${c}`).join("")})
     VALUES ($1${given.map((_, i) => `, $${i + 2}`).join("")})
     ON CONFLICT (organization_id) DO UPDATE SET updated_at = now()${columns.map((c) => `, ${c} = EXCLUDED.${c}`).join("")}`,
    [organizationId, ...given.map((k) => input[k])],
  );
}
