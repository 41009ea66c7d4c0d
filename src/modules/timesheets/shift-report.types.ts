import { ArgsType, Field, Float, ID, Int, ObjectType, registerEnumType } from "type-graphql";

export enum ReportGrouping {
  day = "day",
  location = "location",
  role = "role",
}
registerEnumType(ReportGrouping, { name: "ReportGrouping" });

@ObjectType({ simpleResolvers: true, description: "Worked time and its cost; hours are payable hours" })
export class ReportFigures {
  @Field(() => Int)
  shifts: number;

  @Field(() => Float)
  totalHours: number;

  @Field(() => Float)
  regularHours: number;

  @Field(() => Float)
  overtimeHours: number;

  @Field(() => Int)
  paidBreakMinutes: number;

  @Field(() => Int)
  unpaidBreakMinutes: number;

  @Field(() => Float, { description: "Regular hours × wage plus overtime hours × wage × overtime rate" })
  laborCost: number;

  @Field(() => Int, { description: "Shifts that worked longer than a mandatory break type allows without that break" })
  mandatoryBreakViolations: number;
}

@ObjectType({ simpleResolvers: true })
export class EmployeeReport extends ReportFigures {
  @Field(() => ID)
  employeeId: string;

  @Field()
  employee: string;

  @Field(() => String, { nullable: true })
  externalEmployeeId: string | null;

  @Field(() => String, { nullable: true })
  payrollId: string | null;
}

@ObjectType({ simpleResolvers: true })
export class ReportGroup extends ReportFigures {
  @Field({ description: "The day (YYYY-MM-DD), location id or role id" })
  key: string;

  @Field({ description: "The day, or the location's or role's name" })
  label: string;
}

@ObjectType()
export class ShiftReport {
  @Field(() => ReportGrouping)
  groupBy: ReportGrouping;

  @Field(() => [ReportGroup])
  groups: ReportGroup[];

  @Field(() => ReportFigures)
  totals: ReportFigures;
}

@ArgsType()
export class ReportArgs {
  @Field({ description: "First local day, YYYY-MM-DD" })
  startDate: string;

  @Field({ description: "Last local day (inclusive), YYYY-MM-DD" })
  endDate: string;

  @Field(() => ID, { nullable: true, description: "Only this location's shifts (overtime still counts every location)" })
  locationId?: string;
}

@ArgsType()
export class GroupedReportArgs extends ReportArgs {
  @Field(() => ReportGrouping, { defaultValue: ReportGrouping.day })
  groupBy: ReportGrouping;
}
