import { ArrayMaxSize, IsIn, IsOptional, Max, Min } from "../../common/input-checks";
import { Field, Float, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { CompliancePreset, ComplianceFigures, NUMERIC_FIGURES, NumericFigure } from "./compliance-presets";
import { NullRefused } from "../../common/validation";

registerEnumType(CompliancePreset, { name: "CompliancePreset", description: "The labor-law rule set a location follows (docs/compliance.md)" });

// Lower-case names: the API spells severities "error" and "warning".
export enum ViolationSeverity {
  error = "error",
  warning = "warning",
}
registerEnumType(ViolationSeverity, {
  name: "ViolationSeverity",
  description: "error: a hard limit, publishing refuses it unless acknowledged; warning: allowed at a price",
});

const FIGURE_NAMES = Object.keys(NUMERIC_FIGURES) as NumericFigure[];
const SEVENTH_DAY = "The seventh consecutive workday of a workweek pays its first daily-overtime hours at 1.5x and the rest at 2x";

@ObjectType({ simpleResolvers: true, description: "A location's labor rules: its preset and every figure in force (null: the rule is off)" })
export class ComplianceProfile implements ComplianceFigures {
  @Field(() => ID)
  locationId: string;

  @Field(() => CompliancePreset)
  preset: CompliancePreset;

  @Field(() => [String], { description: "The figures the location sets itself instead of its preset's" })
  overridden: string[];

  @Field({ description: SEVENTH_DAY })
  seventhDayRule: boolean;

  @Field(() => Date, { nullable: true, description: "Last change; null while the location follows the defaults" })
  updatedAt: Date | null;

  minRestHours: number | null;
  restPayRate: number | null;
  restPremiumAmount: number | null;
  noticeDays: number | null;
  changePayHours: number | null;
  reductionPayRate: number | null;
  changePayAmount: number | null;
  reductionPayAmount: number | null;
  lateNoticeDays: number | null;
  lateChangePayAmount: number | null;
  lateReductionPayAmount: number | null;
  maxShiftHours: number | null;
  maxDailyHours: number | null;
  maxWeeklyHours: number | null;
  mealBreakAfterHours: number | null;
  mealBreakMinutes: number | null;
  secondMealBreakAfterHours: number | null;
  mealPremiumHours: number | null;
  dailyOvertimeHours: number | null;
  dailyDoubleTimeHours: number | null;
  weeklyOvertimeHours: number | null;
}

@InputType({ description: "Changes a location's labor rules: a figure given overrides the preset's (null switches its rule off)" })
@NullRefused<UpdateComplianceProfileInput>("preset", "seventhDayRule")
export class UpdateComplianceProfileInput implements Partial<ComplianceFigures> {
  @Field(() => CompliancePreset, { nullable: true })
  preset?: CompliancePreset;

  @Field(() => [String], { nullable: true, description: "Figures that go back to the preset's value" })
  @IsOptional()
  @ArrayMaxSize(FIGURE_NAMES.length + 1)
  @IsIn([...FIGURE_NAMES, "seventhDayRule"], { each: true })
  resetFigures?: string[];

  @Field(() => Boolean, { nullable: true, description: SEVENTH_DAY })
  seventhDayRule?: boolean;

  minRestHours?: number | null;
  restPayRate?: number | null;
  restPremiumAmount?: number | null;
  noticeDays?: number | null;
  changePayHours?: number | null;
  reductionPayRate?: number | null;
  changePayAmount?: number | null;
  reductionPayAmount?: number | null;
  lateNoticeDays?: number | null;
  lateChangePayAmount?: number | null;
  lateReductionPayAmount?: number | null;
  maxShiftHours?: number | null;
  maxDailyHours?: number | null;
  maxWeeklyHours?: number | null;
  mealBreakAfterHours?: number | null;
  mealBreakMinutes?: number | null;
  secondMealBreakAfterHours?: number | null;
  mealPremiumHours?: number | null;
  dailyOvertimeHours?: number | null;
  dailyDoubleTimeHours?: number | null;
  weeklyOvertimeHours?: number | null;
}

// The numeric figures are declared once, in NUMERIC_FIGURES, and become fields of both types here.
for (const name of FIGURE_NAMES) {
  const { max, description } = NUMERIC_FIGURES[name];
  Field(() => Float, { nullable: true, description })(ComplianceProfile.prototype, name);
  Field(() => Float, { nullable: true, description })(UpdateComplianceProfileInput.prototype, name);
  IsOptional()(UpdateComplianceProfileInput.prototype, name);
  Min(0)(UpdateComplianceProfileInput.prototype, name);
  Max(max)(UpdateComplianceProfileInput.prototype, name);
}

@InputType()
export class ComplianceCheckInput {
  @Field({ description: "First day (YYYY-MM-DD, the location's calendar) of the entries and drafts to check" })
  startDate: string;

  @Field({ description: "Last day (YYYY-MM-DD), inclusive" })
  endDate: string;
}

@ObjectType({ simpleResolvers: true, description: "What a violation owes the worker" })
export class Premium {
  @Field(() => Float, { description: "Hours the premium is counted on (rounded to 2 decimals)" })
  hours: number;

  @Field(() => Float, { description: "Amount owed beyond the regular pay of the hours worked (rounded to the cent)" })
  amount: number;
}

@ObjectType({ simpleResolvers: true, description: "Predictability pay a change to a published entry inside the notice window recorded for its worker" })
export class RecordedChangePay {
  @Field({ description: "NOTICE_WINDOW: the rule that owes it" })
  ruleId: string;

  @Field({ description: "ADDED, MOVED or REDUCED: what the change did to the shift" })
  change: string;

  @Field(() => Float, { description: "Hours the pay is counted on (rounded to 2 decimals)" })
  hours: number;

  @Field(() => Float, { description: "Amount owed (to the cent)" })
  amount: number;

  @Field({ description: "The law the pay comes from" })
  citation: string;
}

@ObjectType({ simpleResolvers: true, description: "A labor rule a planned schedule breaks" })
export class ComplianceViolation {
  @Field({ description: "REST_BETWEEN_SHIFTS, MAX_SHIFT_LENGTH, MAX_DAILY_HOURS, MAX_WEEKLY_HOURS, MEAL_BREAK, TIME_OFF or NOTICE_WINDOW" })
  ruleId: string;

  @Field(() => ViolationSeverity)
  severity: ViolationSeverity;

  @Field(() => ID, { name: "workerId", simple: false })
  staffId: string;

  @Field(() => [ID], { description: "The entries and drafts concerned" })
  entryIds: string[];

  @Field()
  message: string;

  @Field({ description: "The law (or the location's own limit) the rule comes from" })
  citation: string;

  @Field(() => Premium, { nullable: true })
  premium: Premium | null;
}

@ObjectType({ simpleResolvers: true })
export class ComplianceCheckResult {
  @Field()
  startDate: string;

  @Field()
  endDate: string;

  @Field(() => [ComplianceViolation])
  violations: ComplianceViolation[];
}

/** The names payroll shows beside a shift: its location (and zone), role and staff member. */
export interface PayrollNames {
  timezone: string;
  location_name: string;
  role_name: string;
  employee_name: string;
  external_employee_id: string | null;
  payroll_id: string | null;
}
