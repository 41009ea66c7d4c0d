import { Field, InputType } from "type-graphql";
import { Length } from "../../../common/input-checks";

@InputType()
export class ShiftNoteInput {
  @Field()
  @Length(1, 5000)
  text: string;
}
