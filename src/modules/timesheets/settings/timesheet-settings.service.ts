import { Actor } from "../../../auth/actor";
import { rejectNulls } from "../../../common/validation";
import { ServiceDeps } from "../../../common/services";
import { Weekday } from "../../../common/weekday";
import { TimesheetSettings } from "./timesheet-settings.entity";
import { UpdateTimesheetSettingsInput } from "./timesheet-settings.graphql";
import { upsertTimesheetSettings } from "./timesheet-settings.store";
import { findOneBy } from "../../../common/entity-reads";

/** Overtime settings of an organization: the defaults until first changed. */
export class TimesheetSettingsService {
  constructor(private readonly deps: ServiceDeps) {}

  async get(actor: Actor): Promise<TimesheetSettings> {
    const stored = await findOneBy(this.deps.db, TimesheetSettings, { organizationId: actor.organizationId });
    return (
      stored ??
      Object.assign(new TimesheetSettings(), {
        organizationId: actor.organizationId,
        weeklyOvertimeHours: 40,
        dailyOvertimeHours: null,
        overtimeRate: 1.5,
        weekStart: Weekday.Monday,
        updatedAt: null,
      })
    );
  }

  /** Changes only the fields given, in one statement (no lost update between two changes). */
  async update(actor: Actor, input: UpdateTimesheetSettingsInput): Promise<TimesheetSettings> {
    rejectNulls(input);
    await this.deps.unitOfWork.run((manager) => upsertTimesheetSettings(manager, actor.organizationId, input));
    return this.get(actor);
  }
}
