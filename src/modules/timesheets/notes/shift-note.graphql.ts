import { Field, InputType } from "type-graphql";
import { Length } from "class-validator";

@InputType()
export class ShiftNoteInput {
  @Field()
  @Length(1, 5000)
  text: string;
}
