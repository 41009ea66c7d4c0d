import { ArgsType, Field, ID, InputType, ObjectType } from "type-graphql";
import { ArrayMaxSize, IsOptional, Length, ValidateNested } from "../../common/input-checks";
import { Connection, PageArgs } from "../../common/pagination";
import { NullRefused } from "../../common/validation";
import { ShiftTemplate, TemplateBreak } from "./shift-template.entity";

@InputType()
export class CreateShiftTemplateInput {
  @Field()
  @Length(1, 200)
  name: string;

  @Field(() => ID)
  roleId: string;

  @Field({ description: "Local time of day, HH:MM" })
  startTime: string;

  @Field({ description: "Local time of day, HH:MM; earlier than startTime: the next day" })
  endTime: string;

  @Field(() => [TemplateBreak], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  breaks?: TemplateBreak[];

  @Field(() => [ID], { nullable: true, description: "Templates of this location a person may not work the day after this one" })
  @IsOptional()
  @ArrayMaxSize(200)
  cannotBeFollowedBy?: string[];
}

@InputType()
@NullRefused<UpdateShiftTemplateInput>("name", "roleId", "startTime", "endTime", "breaks", "cannotBeFollowedBy")
export class UpdateShiftTemplateInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 200)
  name?: string;

  @Field(() => ID, { nullable: true })
  roleId?: string;

  @Field(() => String, { nullable: true })
  startTime?: string;

  @Field(() => String, { nullable: true })
  endTime?: string;

  @Field(() => [TemplateBreak], { nullable: true, description: "Replaces the planned breaks" })
  @IsOptional()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  breaks?: TemplateBreak[];

  @Field(() => [ID], { nullable: true, description: "Replaces the list" })
  @IsOptional()
  @ArrayMaxSize(200)
  cannotBeFollowedBy?: string[];
}

@ArgsType()
export class ShiftTemplateListArgs extends PageArgs {
  @Field(() => ID)
  locationId: string;
}

@ObjectType({ simpleResolvers: true })
export class ShiftTemplateConnection extends Connection(ShiftTemplate) {}
