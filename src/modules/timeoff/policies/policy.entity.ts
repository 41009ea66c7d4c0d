import { IsBoolean, IsIn, IsOptional, Matches, Max, MaxLength, Min, ValidateIf, ValidateNested } from "../../../common/input-checks";
import { Field, Float, ID, InputType, ObjectType } from "type-graphql";
import { Column, DeleteDateColumn, Entity } from "typeorm";
import { numericColumn, TenantRecord } from "../../../common/entity-columns";

export const POLICY_UNITS = ["hours", "days"] as const;
export const ACCRUAL_CYCLES = ["AllAtOnce", "Periodic"] as const;
export const ACCRUAL_FREQUENCIES = ["EveryOneWeek", "EveryTwoWeeks", "EveryMonth"] as const;
export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
export const ASSIGNED_STAFF_TYPES = ["All", "Role", "Location", "Staff"] as const;
/** `1st` … `31st`: a day of the month. */
export const ACCRUAL_DATE = /^([1-9]|[12]\d|3[01])(st|nd|rd|th)$/;
/** More hours than a leap year has is a typing mistake, not a policy. */
export const MAX_POLICY_HOURS = 8784;

@ObjectType("FixedAmountSettings", { simpleResolvers: true })
@InputType("FixedAmountSettingsInput")
export class FixedAmountSettings {
  @Field(() => Float, { nullable: true, description: "Hours granted per year" })
  @IsOptional()
  @Min(0)
  @Max(MAX_POLICY_HOURS)
  hours?: number | null;

  @Field(() => Float, { nullable: true, description: "Days granted per year (× fullDayDuration), when hours is not given" })
  @IsOptional()
  @Min(0)
  @Max(366)
  daysEarned?: number | null;

  @Field(() => String, { nullable: true, description: "AllAtOnce (each January) or Periodic" })
  @IsOptional()
  @IsIn(ACCRUAL_CYCLES)
  accrualCycle?: string | null;

  @Field(() => String, { nullable: true, description: "EveryOneWeek, EveryTwoWeeks or EveryMonth (Periodic only)" })
  @IsOptional()
  @IsIn(ACCRUAL_FREQUENCIES)
  accrualFrequency?: string | null;

  @Field(() => String, { nullable: true, description: "Weekday of weekly accruals: Monday … Sunday" })
  @IsOptional()
  @IsIn(WEEKDAYS)
  accrualDay?: string | null;

  @Field(() => String, { nullable: true, description: "Day of the month, 1st … 31st (the last day in shorter months)" })
  @IsOptional()
  @Matches(ACCRUAL_DATE, { message: "accrualDate must be a day of the month such as 1st, 15th or 31st" })
  accrualDate?: string | null;
}

@ObjectType("PerHourEarnings", { simpleResolvers: true })
@InputType("PerHourEarningsInput")
export class PerHourEarnings {
  @Field(() => Float, { nullable: true, description: "Hours earned for every hoursWorked payable hours" })
  @IsOptional()
  @Min(0)
  @Max(1000)
  hoursEarned?: number | null;

  @Field(() => Float, { nullable: true })
  @IsOptional()
  @Min(0.01)
  @Max(10000)
  hoursWorked?: number | null;

  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isLimitedMaximumBalance?: boolean | null;

  @Field(() => Float, { nullable: true, description: "Accrual stops at this balance when isLimitedMaximumBalance" })
  @IsOptional()
  @Min(0)
  @Max(MAX_POLICY_HOURS)
  maximumHoursBalance?: number | null;
}

@ObjectType("LimitSettings", { simpleResolvers: true })
@InputType("LimitSettingsInput")
export class LimitSettings {
  @Field({ description: "True: a fixed amount per year; false: earned per hour worked" })
  @IsBoolean()
  isFixedAmount: boolean;

  // Only the branch the accrual uses is checked: the other comes back from a read as it was given
  // (zeros or nulls, as spec 2.2 shows it), and must be accepted back unchanged.
  @Field(() => FixedAmountSettings, { nullable: true })
  @ValidateIf((settings: LimitSettings) => settings.isFixedAmount && settings.fixedAmount != null)
  @ValidateNested()
  fixedAmount?: FixedAmountSettings | null;

  @Field(() => PerHourEarnings, { nullable: true })
  @ValidateIf((settings: LimitSettings) => !settings.isFixedAmount && settings.perHourEarnings != null)
  @ValidateNested()
  perHourEarnings?: PerHourEarnings | null;
}

@ObjectType("AssignedStaff", { simpleResolvers: true })
@InputType("AssignedStaffInput")
export class AssignedStaff {
  @Field({ description: "All, Role, Location or Staff" })
  @IsIn(ASSIGNED_STAFF_TYPES)
  type: string;

  @Field(() => String, { nullable: true, description: "The role, location or staff id(s), comma-separated; empty for All" })
  @IsOptional()
  @MaxLength(20000)
  value?: string | null;
}

@ObjectType("DefaultSettings", { simpleResolvers: true })
@InputType("DefaultSettingsInput")
export class DefaultSettings {
  @Field(() => AssignedStaff, { nullable: true, description: "Which staff the policy includes by default, now and when they join later" })
  @IsOptional()
  @ValidateNested()
  assignedStaff?: AssignedStaff | null;
}

@ObjectType({ simpleResolvers: true, description: "A time-off policy: what kind of time off, how it is earned, and who has it" })
@Entity("time_off_policies")
export class TimeOffPolicy extends TenantRecord {
  @Field()
  @Column({ type: "text" })
  name: string;

  @Field(() => ID)
  @Column({ name: "type_id", type: "uuid" })
  typeId: string;

  @Field(() => ID, { nullable: true, description: "The location the policy belongs to, if any" })
  @Column({ name: "location_id", type: "uuid", nullable: true })
  locationId: string | null;

  @Field({ description: "Draft (new), Active (requests and accruals) or Inactive" })
  @Column({ type: "text" })
  status: string;

  @Field()
  @Column({ type: "boolean" })
  paid: boolean;

  @Field({ description: "hours or days (a day is fullDayDuration hours); balances are kept in hours" })
  @Column({ type: "text" })
  units: string;

  @Field({ description: "False: requests are approved as they are filed" })
  @Column({ name: "requires_approval", type: "boolean" })
  requiresApproval: boolean;

  @Field()
  @Column({ name: "allow_negative_balance", type: "boolean" })
  allowNegativeBalance: boolean;

  @Field(() => Float, { nullable: true, description: "Hours kept over January 1st; the rest is forfeited. Null: no limit" })
  @Column({ name: "carryover_limit", type: "numeric", nullable: true, transformer: numericColumn })
  carryoverLimit: number | null;

  @Field(() => Float, { description: "Hours of a full day off" })
  @Column({ name: "full_day_duration", type: "numeric", transformer: numericColumn })
  fullDayDuration: number;

  @Field(() => LimitSettings)
  @Column({ name: "limit_settings", type: "jsonb" })
  limitSettings: LimitSettings;

  @Column({ name: "assigned_staff_type", type: "text", nullable: true })
  assignedStaffType: string | null;

  @Column({ name: "assigned_staff_ids", type: "uuid", array: true })
  assignedStaffIds: string[];

  /** The day of the last activation: accruals count from here. */
  @Column({ name: "accruing_since", type: "date", nullable: true })
  accruingSince: string | null;

  /** Set when the policy is removed: TypeORM's reads then leave it out; its ledger stays. */
  @DeleteDateColumn({ name: "deleted_at", type: "timestamptz", nullable: true })
  deletedAt: Date | null;
}
