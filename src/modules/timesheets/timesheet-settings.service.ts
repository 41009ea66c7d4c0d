import { Actor } from "../../auth/actor";
import { rejectNulls } from "../../common/validation";
import { ServiceDeps } from "../../common/services";
import { TimesheetSettings, Weekday } from "./timesheet-settings.entity";
import { UpdateTimesheetSettingsInput } from "./timesheet-settings.inputs";

const COLUMNS: Record<keyof UpdateTimesheetSettingsInput, string> = {
  weeklyOvertimeHours: "weekly_overtime_hours",
  dailyOvertimeHours: "daily_overtime_hours",
  overtimeRate: "overtime_rate",
  weekStart: "week_start",
};

/** Overtime settings of an organization: the defaults until first changed. */
export class TimesheetSettingsService {
  constructor(private readonly deps: ServiceDeps) {}

  async get(actor: Actor): Promise<TimesheetSettings> {
    const stored = await this.deps.db.getRepository(TimesheetSettings).findOneBy({ organizationId: actor.organizationId });
    return (
      stored ??
      Object.assign(new TimesheetSettings(), { organizationId: actor.organizationId, weeklyOvertimeHours: 40, dailyOvertimeHours: null, overtimeRate: 1.5, weekStart: Weekday.Monday, updatedAt: null })
    );
  }

  /** Changes only the fields given, in one statement (no lost update between two changes). */
  async update(actor: Actor, input: UpdateTimesheetSettingsInput): Promise<TimesheetSettings> {
    rejectNulls(input, ["weeklyOvertimeHours", "overtimeRate", "weekStart"]);
    const given = (Object.keys(COLUMNS) as (keyof UpdateTimesheetSettingsInput)[]).filter((k) => input[k] !== undefined);
    const columns = given.map((k) => COLUMNS[k]);
    await this.deps.db.query(
      `INSERT INTO timesheet_settings (organization_id${columns.map((c) => `, ${c}`).join("")})
       VALUES ($1${given.map((_, i) => `, $${i + 2}`).join("")})
       ON CONFLICT (organization_id) DO UPDATE SET updated_at = now()${columns.map((c) => `, ${c} = EXCLUDED.${c}`).join("")}`,
      [actor.organizationId, ...given.map((k) => input[k])],
    );
    return this.get(actor);
  }
}
