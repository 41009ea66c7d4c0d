import { Length } from "../../../common/input-checks";
import { Field, ID, InputType, ObjectType } from "type-graphql";

@ObjectType({ simpleResolvers: true, description: "A registered time-clock device (a kiosk) of a location; its token is shown once, when registered" })
export class ClockDevice {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  locationId: string;

  @Field()
  name: string;

  @Field()
  createdAt: Date;

  @Field(() => Date, { nullable: true, description: "When the device was revoked; its token no longer punches" })
  revokedAt: Date | null;
}

@ObjectType({ simpleResolvers: true, description: "A device just registered, with its token: shown this once, kept only as a hash" })
export class RegisteredClockDevice {
  @Field(() => ClockDevice)
  device: ClockDevice;

  @Field({ description: "Send it in the X-Clock-Device header of each punch from the device" })
  token: string;
}

@InputType()
export class RegisterClockDeviceInput {
  @Field()
  @Length(1, 200)
  name: string;
}
