import { registerEnumType } from "type-graphql";
import { addDays } from "./time";

/** The days of the week, as settings name them (the day overtime weeks start, a rule's days). */
export enum Weekday {
  Monday = "Monday",
  Tuesday = "Tuesday",
  Wednesday = "Wednesday",
  Thursday = "Thursday",
  Friday = "Friday",
  Saturday = "Saturday",
  Sunday = "Sunday",
}
registerEnumType(Weekday, { name: "Weekday" });

/** ISO weekday number (Monday 1 … Sunday 7), as luxon counts. */
export const weekdayNumber = (day: Weekday): number => Object.values(Weekday).indexOf(day) + 1;

/** The ISO weekday (Monday 1 … Sunday 7) of calendar day `date` (`YYYY-MM-DD`). */
export const isoWeekdayOf = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay() || 7;

/** The first day of the workweek holding calendar day `date`, weeks starting on ISO weekday `weekStart`. */
export const workweekOf = (date: string, weekStart: number): string => addDays(date, -((isoWeekdayOf(date) - weekStart + 7) % 7));
