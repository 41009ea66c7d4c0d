import { ArrayMaxSize, IsOptional, Max, MaxLength, Min, ValidateNested } from "../../../common/input-checks";
import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";

export enum ClockEnforcement {
  BLOCK = "BLOCK",
  FLAG = "FLAG",
}
registerEnumType(ClockEnforcement, {
  name: "ClockEnforcement",
  description: "BLOCK: a punch that breaks a rule is refused (403 CLOCK_RULE); FLAG: it is taken and leaves a CLOCK_RULE exception",
});

@ObjectType({
  simpleResolvers: true,
  description: "A circle around the location; GPS accuracy is counted in the worker's favour up to the radius (docs/attendance.md)",
})
@InputType("GeofenceInput")
export class Geofence {
  @Field(() => Float)
  @Min(-90)
  @Max(90)
  latitude: number;

  @Field(() => Float)
  @Min(-180)
  @Max(180)
  longitude: number;

  @Field(() => Float)
  @Min(1)
  @Max(100000)
  radiusMeters: number;
}

@ObjectType({ simpleResolvers: true, description: "Where and when a location's punches may happen" })
export class ClockRules {
  @Field(() => ID)
  locationId: string;

  @Field(() => Geofence, { nullable: true })
  geofence: Geofence | null;

  @Field(() => [String], { description: "CIDR ranges (IPv4 and IPv6) a punch must come from; empty: any network" })
  allowedNetworks: string[];

  @Field({ description: "A punch must carry a registered device's token in X-Clock-Device" })
  requireDevice: boolean;

  @Field(() => Int, { nullable: true, description: "How many minutes before the scheduled start a clock-in may come; null: no limit" })
  earlyClockInMinutes: number | null;

  @Field({ description: "A clock-in needs a published schedule entry" })
  requireSchedule: boolean;

  @Field(() => ClockEnforcement)
  enforcement: ClockEnforcement;

  @Field(() => Date, { nullable: true, description: "Last change; null while the location has no rules" })
  updatedAt: Date | null;
}

@InputType({ description: "A location's clock rules, replaced whole (what is left out goes back to its default: no restriction)" })
export class ClockRulesInput {
  @Field(() => Geofence, { nullable: true })
  @IsOptional()
  @ValidateNested()
  geofence?: Geofence | null;

  @Field(() => [String], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(100)
  @MaxLength(64, { each: true })
  allowedNetworks?: string[] | null;

  @Field(() => Boolean, { nullable: true })
  requireDevice?: boolean | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(0)
  @Max(1440)
  earlyClockInMinutes?: number | null;

  @Field(() => Boolean, { nullable: true })
  requireSchedule?: boolean | null;

  @Field(() => ClockEnforcement, { nullable: true })
  enforcement?: ClockEnforcement | null;
}

/** Where the device stands when it punches: fields of the clock-in and clock-out inputs (a geofenced location needs latitude and longitude). */
@InputType("PunchPosition", { description: "Where the device stands when it punches" })
export class PunchPositionFields {
  @Field(() => Float, { nullable: true })
  @IsOptional()
  @Min(-90)
  @Max(90)
  latitude?: number | null;

  @Field(() => Float, { nullable: true })
  @IsOptional()
  @Min(-180)
  @Max(180)
  longitude?: number | null;

  @Field(() => Float, { nullable: true, description: "The fix's accuracy radius in metres" })
  @IsOptional()
  @Min(0)
  @Max(100000)
  accuracyMeters?: number | null;
}
