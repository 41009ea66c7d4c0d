import { DataSource } from "typeorm";
import { EventPresenter } from "../../src/modules/events/event-presenter";
import { OpenShift, OpenShiftPreference } from "../../src/modules/open-shifts/open-shift.entity";
import { ScheduleEntry } from "../../src/modules/schedules/schedule.entity";

/** Only what the presenter reads of the data source: each entity's table, class and columns. */
function presenterOf(entities: { tableName: string; target: Function; columns: [string, string][] }[]): EventPresenter {
  const entityMetadatas = entities.map((e) => ({ ...e, columns: e.columns.map(([databaseName, propertyName]) => ({ databaseName, propertyName })) }));
  return new EventPresenter({ entityMetadatas } as unknown as DataSource);
}

describe("event presenter", () => {
  it("shows a person under the field's wire name, not the code's staffId", () => {
    const presenter = presenterOf([
      {
        tableName: "schedule_entries",
        target: ScheduleEntry,
        columns: [
          ["worker_id", "staffId"],
          ["start_time", "startsAt"],
        ],
      },
      { tableName: "open_shift_preferences", target: OpenShiftPreference, columns: [["worker_id", "staffId"]] },
    ]);
    expect(presenter.present("schedule_entries", { worker_id: "w", start_time: "s" })).toEqual({ workerId: "w", startsAt: "s" });
    expect(presenter.present("open_shift_preferences", { worker_id: "w" })).toEqual({ workerId: "w" });
  });

  it("keeps the property name where the schema field names something else", () => {
    const presenter = presenterOf([{ tableName: "open_shifts", target: OpenShift, columns: [["break_type_ids", "breakTypeIds"]] }]);
    expect(presenter.present("open_shifts", { break_type_ids: [] })).toEqual({ breakTypeIds: [] });
  });
});
