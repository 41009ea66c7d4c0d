import { Field, Float, ID, Int, ObjectType, registerEnumType } from "type-graphql";

export enum ExportRowKind {
  SHIFT = "SHIFT",
  PREDICTABILITY_PAY = "PREDICTABILITY_PAY",
}
registerEnumType(ExportRowKind, {
  name: "ExportRowKind",
  description: "SHIFT: a closed shift; PREDICTABILITY_PAY: pay recorded for a change to a scheduled shift inside the notice window",
});

@ObjectType({ simpleResolvers: true, description: "One closed shift, or one predictability payment, as a payroll system takes it" })
export class ShiftExportRow {
  @Field(() => ID, { description: "The shift's id; for PREDICTABILITY_PAY, the schedule entry's" })
  shiftId: string;

  @Field()
  employee: string;

  @Field(() => String, { nullable: true })
  externalEmployeeId: string | null;

  @Field(() => String, { nullable: true })
  payrollId: string | null;

  @Field()
  location: string;

  @Field()
  role: string;

  @Field({ description: "YYYY-MM-DD, the local day the shift starts" })
  date: string;

  @Field()
  startTime: string;

  @Field()
  endTime: string;

  @Field(() => Int)
  durationMinutes: number;

  @Field(() => Int)
  paidBreakMinutes: number;

  @Field(() => Int)
  unpaidBreakMinutes: number;

  @Field(() => Int, { description: "Duration less unpaid breaks, in whole minutes" })
  payableMinutes: number;

  @Field(() => Float, { description: "payableMinutes / 60, to two decimals (for reading; pay uses the minutes)" })
  payableHours: number;

  @Field(() => Float, { description: "The wage as stored, up to four decimals" })
  hourlyWage: number;

  @Field(() => Float, { description: "payableMinutes × hourlyWage / 60, rounded once to the cent (half away from zero)" })
  pay: number;

  @Field(() => Int, { description: "Payable minutes at the regular rate" })
  regularMinutes: number;

  @Field(() => Int, { description: "Payable minutes at overtimeRate" })
  overtimeMinutes: number;

  @Field(() => Int, { description: "Payable minutes at 2× (the location's compliance profile)" })
  doubleTimeMinutes: number;

  @Field(() => Float, { description: "The overtime rate: the organization's setting, or 1.5 where the location's compliance profile sets overtime" })
  overtimeRate: number;

  @Field(() => Float, { description: "overtimeMinutes × hourlyWage × (overtimeRate − 1) / 60, rounded once to the cent" })
  overtimePremium: number;

  @Field(() => Float, { description: "doubleTimeMinutes × hourlyWage / 60 (2× less the regular rate), rounded once to the cent" })
  doubleTimePremium: number;

  @Field(() => Int, {
    description: "Minutes of regular pay owed as the meal-period premium (the recorded breaks missed the location's meal-break rule; at most one per workday)",
  })
  mealPremiumMinutes: number;

  @Field(() => Float, { description: "mealPremiumMinutes × hourlyWage / 60, rounded once to the cent" })
  mealPremium: number;

  @Field(() => Int, { description: "Minutes of the shift worked inside a rest period shorter than the location's minimum" })
  restGapMinutes: number;

  @Field(() => Float, { nullable: true, description: "The rate above regular pay for those minutes (restPayRate − 1); null for a flat premium" })
  restGapRate: number | null;

  @Field(() => Float, {
    description: "restGapMinutes × hourlyWage × restGapRate / 60 rounded once to the cent, or the profile's flat amount when restGapRate is null",
  })
  restGapPremium: number;

  @Field(() => Float, { description: "Predictability pay as recorded when the schedule changed (PREDICTABILITY_PAY rows)" })
  predictabilityPay: number;

  @Field(() => ExportRowKind)
  kind: ExportRowKind;
}
