import { Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { PunchPositionFields } from "../attendance";
import { Shift, ShiftBreak } from "../timesheets";

export enum ClockState {
  CLOCKED_OUT = "CLOCKED_OUT",
  CLOCKED_IN = "CLOCKED_IN",
  ON_BREAK = "ON_BREAK",
}
registerEnumType(ClockState, { name: "ClockState", description: "Where a worker stands on the time clock" });

@ObjectType({ simpleResolvers: true, description: "A worker's time-clock state, with the open shift and running break" })
export class ShiftState {
  @Field(() => ID, { name: "workerId", simple: false })
  staffId: string;

  @Field(() => ClockState)
  state: ClockState;

  @Field(() => Shift, { nullable: true })
  shift: Shift | null;

  @Field(() => ShiftBreak, { nullable: true })
  currentBreak: ShiftBreak | null;
}

const TIME_HELP = "Corrected time, for managers only (timeclock:manage); default now. Without an offset it is read in the location's time zone";
const WORKER_HELP = "Default: the staff member the token acts as";

@InputType()
export class ClockInInput extends PunchPositionFields {
  @Field(() => ID, { nullable: true, description: WORKER_HELP })
  workerId?: string;

  @Field(() => ID)
  locationId: string;

  @Field(() => ID)
  roleId: string;

  @Field(() => String, { nullable: true, description: TIME_HELP })
  time?: string;
}

@InputType()
export class ClockOutInput extends PunchPositionFields {
  @Field(() => ID, { nullable: true, description: WORKER_HELP })
  workerId?: string;

  @Field(() => String, { nullable: true, description: TIME_HELP })
  time?: string;
}

@InputType()
export class BreakStartInput extends ClockOutInput {
  @Field(() => ID, { description: "A break type of the shift's location" })
  typeId: string;
}
