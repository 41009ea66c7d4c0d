import { Field, ID, InputType, ObjectType } from "type-graphql";

@InputType()
export class DayLockInput {
  @Field(() => ID)
  locationId: string;

  @Field({ description: "YYYY-MM-DD, the location's local day" })
  date: string;
}

@ObjectType({ simpleResolvers: true, description: "A day of a location locked (or unlocked) for payroll" })
export class DayLock {
  @Field(() => ID)
  locationId: string;

  @Field()
  date: string;

  @Field()
  locked: boolean;
}
