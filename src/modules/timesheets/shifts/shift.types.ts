import { Field, Float, ID, Int, ObjectType } from "type-graphql";

@ObjectType({ simpleResolvers: true, description: "A break taken during a shift; times are the location's local time with offset" })
export class ShiftBreak {
  @Field(() => ID)
  id: string;

  @Field()
  startTime: string;

  @Field(() => String, { nullable: true, description: "Null while the break is still running" })
  endTime: string | null;

  @Field(() => ID, { nullable: true, description: "The break type it was taken as" })
  typeId: string | null;

  @Field()
  paid: boolean;

  @Field()
  name: string;

  @Field()
  mandatory: boolean;

  @Field(() => Int)
  frequencyMinutes: number;

  @Field(() => Int, { description: "The break's length as its type sets it, in minutes" })
  durationInSettingsMinutes: number;
}

@ObjectType({ simpleResolvers: true, description: "A shift (timesheet entry). Durations are whole minutes; breaks count only inside the shift" })
export class Shift {
  @Field(() => ID)
  id: string;

  // Not a simple field: the property is named apart from the field.
  @Field(() => ID, { name: "employeeId", simple: false })
  staffId: string;

  @Field(() => ID)
  locationId: string;

  @Field(() => ID)
  roleId: string;

  @Field({ description: "Local time of the location with its offset: 2026-03-02T09:00:00.000-05:00" })
  startTime: string;

  @Field(() => String, { nullable: true, description: "Null while the shift is open (clocked in)" })
  endTime: string | null;

  @Field(() => [ShiftBreak])
  breaks: ShiftBreak[];

  @Field(() => Float)
  hourlyWage: number;

  @Field(() => Int, { description: "Minutes of paid breaks inside the shift" })
  totalPaidBreaks: number;

  @Field(() => Int, { description: "Minutes of unpaid breaks inside the shift" })
  totalUnpaidBreaks: number;

  @Field(() => Int, { description: "Minutes from start to end (an open shift counts up to now)" })
  duration: number;

  @Field(() => Int, { description: "duration − totalUnpaidBreaks" })
  payableDuration: number;

  @Field(() => Int, { description: "Minutes east of UTC at the start of the shift" })
  utcOffset: number;

  @Field({ description: "The location's IANA time zone" })
  timezone: string;

  @Field()
  utcStartTime: string;

  @Field(() => String, { nullable: true })
  utcEndTime: string | null;

  @Field({ description: "The shift starts on a day locked for payroll: it cannot be changed or deleted" })
  locked: boolean;

  @Field({ description: "True while the shift is open" })
  active: boolean;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;

  @Field(() => Date, { nullable: true })
  deletedAt: Date | null;
}

@ObjectType({ simpleResolvers: true, description: "Sums over the listed shifts, in minutes" })
export class ShiftTotals {
  @Field(() => Int)
  duration: number;

  @Field(() => Int)
  totalPaidBreaks: number;

  @Field(() => Int)
  totalUnpaidBreaks: number;

  @Field(() => Int)
  payableDuration: number;
}

@ObjectType({ simpleResolvers: true, description: "Shifts matching the filters, the locked days of the range, and their totals" })
export class ShiftList {
  @Field(() => [Shift])
  shifts: Shift[];

  @Field(() => [String], { description: "Days (YYYY-MM-DD) of the range locked for payroll" })
  lockedDays: string[];

  @Field(() => ShiftTotals)
  totals: ShiftTotals;
}

@ObjectType()
export class DeletedShifts {
  @Field(() => Int)
  deleted: number;
}

@ObjectType({ description: "A day of a location locked (or unlocked) for payroll" })
export class DayLock {
  @Field(() => ID)
  locationId: string;

  @Field()
  date: string;

  @Field()
  locked: boolean;
}
