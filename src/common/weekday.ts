import { registerEnumType } from "type-graphql";

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
