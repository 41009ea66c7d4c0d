import { Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { Column, Entity } from "typeorm";
import { TenantRecord } from "../../common/entity-columns";
import { templateMinutes } from "./shift-template.rules";

@ObjectType({ simpleResolvers: true, description: "A planned break of a template: one of the location's break types, at a fixed local time or not" })
@InputType("TemplateBreakInput")
export class TemplateBreak {
  @Field(() => ID)
  typeId: string;

  @Field(() => String, { nullable: true, description: "Local time of day (HH:MM) the break starts; without it the break is taken when convenient" })
  startTime?: string | null;
}

@ObjectType({ simpleResolvers: true, description: "A location's recurring shift: a role from a local start to a local end time, with its breaks" })
@Entity("shift_templates")
export class ShiftTemplate extends TenantRecord {
  @Field(() => ID)
  @Column({ name: "location_id", type: "uuid" })
  locationId: string;

  @Field(() => ID)
  @Column({ name: "role_id", type: "uuid" })
  roleId: string;

  @Field()
  @Column({ type: "text" })
  name: string;

  @Field({ description: "Local time of day (HH:MM) the shift starts" })
  @Column({ name: "start_time", type: "text" })
  startTime: string;

  @Field({ description: "Local time of day (HH:MM) the shift ends; earlier than startTime: the next day" })
  @Column({ name: "end_time", type: "text" })
  endTime: string;

  @Field(() => [TemplateBreak])
  @Column({ type: "jsonb" })
  breaks: TemplateBreak[];

  @Field(() => [ID], { description: "Templates a person may not work on the day after this one (a late then an early)" })
  @Column({ name: "cannot_be_followed_by", type: "uuid", array: true })
  cannotBeFollowedBy: string[];

  @Field(() => Int, { description: "Minutes from start to end" })
  get durationMinutes(): number {
    return templateMinutes(this.startTime, this.endTime);
  }
}
