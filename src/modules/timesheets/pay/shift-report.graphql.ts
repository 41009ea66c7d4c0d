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

  @Field(() => Float, { description: "Hours at the overtime rate: the organization's settings, or 1.5× where the location's compliance profile sets overtime" })
  overtimeHours: number;

  @Field(() => Float, {
    description: "Hours at 2× (the location's compliance profile: over the double-time threshold, or beyond the first 8 on the seventh consecutive workday)",
  })
  doubleTimeHours: number;

  @Field(() => Int)
  paidBreakMinutes: number;

  @Field(() => Int)
  unpaidBreakMinutes: number;

  @Field(() => Float, { description: "Pay of the hours worked: every payable hour × wage, plus overtimePremium and doubleTimePremium" })
  laborCost: number;

  @Field(() => Float, { description: "Overtime hours × wage × (overtime rate − 1): the part of overtime above the regular rate" })
  overtimePremium: number;

  @Field(() => Float, { description: "Double-time hours × wage: the part of double time above the regular rate" })
  doubleTimePremium: number;

  @Field(() => Int, {
    description: "Workdays owed a meal-period premium: a shift whose recorded breaks missed the location's meal-break rule (at most one per workday)",
  })
  mealPremiums: number;

  @Field(() => Float, {
    description: "The meal-period premiums: the profile's premium hours (1 under US_CA, Labor Code §226.7) × wage of the shift that missed the rule",
  })
  mealPremium: number;

  @Field(() => Float, {
    description:
      "Premiums for work inside a rest period shorter than the location's minimum (hours inside × wage × (rest rate − 1), or the flat amount per shift)",
  })
  restGapPremium: number;

  @Field(() => Float, { description: "Predictability pay recorded for changes inside the notice window to scheduled shifts starting in the range" })
  predictabilityPay: number;

  @Field(() => Float, { description: "laborCost plus mealPremium, restGapPremium and predictabilityPay, rounded once from the exact sum" })
  totalCost: number;

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

@ObjectType({ simpleResolvers: true })
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
  @Field(() => String, { nullable: true, description: "First local day, YYYY-MM-DD (unless payPeriod is given)" })
  startDate: string;

  @Field(() => String, { nullable: true, description: "Last local day (inclusive), YYYY-MM-DD (unless payPeriod is given)" })
  endDate: string;

  @Field(() => String, { nullable: true, description: "The first day of a pay period, instead of startDate and endDate (docs/pay-periods.md)" })
  payPeriod?: string;

  @Field(() => ID, { nullable: true, description: "Only this location's shifts (overtime still counts every location)" })
  locationId?: string;
}

@ArgsType()
export class GroupedReportArgs extends ReportArgs {
  @Field(() => ReportGrouping, { defaultValue: ReportGrouping.day })
  groupBy: ReportGrouping;
}
