import { Field, Float, ObjectType } from "type-graphql";
import { Column, Entity, PrimaryColumn } from "typeorm";
import { numericColumn } from "../../../common/entity-columns";
import { Weekday } from "../../../common/weekday";

@ObjectType({ simpleResolvers: true, description: "How an organization counts overtime" })
@Entity("timesheet_settings")
export class TimesheetSettings {
  @PrimaryColumn({ name: "organization_id", type: "uuid" })
  organizationId: string;

  @Field(() => Float, { description: "Payable hours per week beyond which hours are overtime (default 40)" })
  @Column({ name: "weekly_overtime_hours", type: "numeric", transformer: numericColumn })
  weeklyOvertimeHours: number;

  @Field(() => Float, { nullable: true, description: "Payable hours per day beyond which hours are overtime; null: no daily rule" })
  @Column({ name: "daily_overtime_hours", type: "numeric", nullable: true, transformer: numericColumn })
  dailyOvertimeHours: number | null;

  @Field(() => Float, { description: "Overtime pay as a multiple of the wage (default 1.5)" })
  @Column({ name: "overtime_rate", type: "numeric", transformer: numericColumn })
  overtimeRate: number;

  @Field(() => Weekday, { description: "The day overtime weeks start (default Monday)" })
  @Column({ name: "week_start", type: "text" })
  weekStart: Weekday;

  @Field(() => Date, { nullable: true, description: "Null while the defaults apply" })
  @Column({ name: "updated_at", type: "timestamptz" })
  updatedAt: Date | null;
}
