import { Field, Float, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { Column, Entity } from "typeorm";
import { TenantRecord } from "../../common/entity-columns";

export enum GenerationStatus {
  QUEUED = "QUEUED",
  RUNNING = "RUNNING",
  SUCCEEDED = "SUCCEEDED",
  FAILED = "FAILED",
  CANCELLED = "CANCELLED",
}
registerEnumType(GenerationStatus, { name: "GenerationStatus", description: "Where a schedule generation stands" });

export enum GenerationMode {
  FILL = "FILL",
  REPLACE_DRAFTS = "REPLACE_DRAFTS",
}
registerEnumType(GenerationMode, { name: "GenerationMode", description: "FILL keeps the range's drafts and adds; REPLACE_DRAFTS replaces them" });

@ObjectType({ simpleResolvers: true, description: "How far a running generation has come" })
export class GenerationProgress {
  @Field(() => Float, { description: "Seconds since the search started" })
  elapsedSeconds: number;

  @Field(() => Float, { nullable: true, description: "Objective of the best schedule found so far that keeps every hard rule" })
  bestObjective: number | null;

  @Field(() => Int, { description: "Moves the search has tried" })
  moves: number;
}

@ObjectType({ simpleResolvers: true, description: "The objective and its parts (section 4 of the planning guide)" })
export class ObjectiveBreakdown {
  @Field(() => Float)
  objective: number;

  @Field(() => Float, { description: "People missing × underWeight" })
  coverUnder: number;

  @Field(() => Float, { description: "People too many × overWeight" })
  coverOver: number;

  @Field(() => Float, { description: "Weights of PREFER_ON preferences missed" })
  preferenceOn: number;

  @Field(() => Float, { description: "Weights of PREFER_OFF preferences met" })
  preferenceOff: number;

  @Field(() => Float, { description: "costWeight × labor cost" })
  cost: number;

  @Field(() => Float, {
    description:
      "costWeight × the premiums the shifts owe under the compliance profile (predictability pay, short rest): only with allowPremiums, else none is allowed",
  })
  premiums: number;
}

@ObjectType({ simpleResolvers: true, description: "A hard rule the best schedule found still breaks" })
export class GenerationViolation {
  @Field(() => ID)
  workerId: string;

  @Field({
    description:
      "MIN_MINUTES, MAX_MINUTES, MAX_SHIFTS, MAX_CONSECUTIVE_SHIFTS, MIN_CONSECUTIVE_SHIFTS, MIN_CONSECUTIVE_DAYS_OFF, MAX_WEEKENDS, MAX_WEEKLY_HOURS, CANNOT_BE_FOLLOWED_BY, …",
  })
  rule: string;

  @Field(() => String, { nullable: true })
  date: string | null;

  @Field()
  message: string;
}

@ObjectType({ simpleResolvers: true })
export class ReasonCount {
  @Field({
    description:
      "Why candidates were kept out: ROLE, LOCATION, UNAVAILABLE, TIME_OFF, OVERLAP, REST_BETWEEN_SHIFTS, … (eligibility codes), ONE_SHIFT_A_DAY, CANNOT_BE_FOLLOWED_BY, a limit (MAX_MINUTES, …), or COST (allowed, but the objective is lower without)",
  })
  code: string;

  @Field(() => Int, { description: "Staff members kept out for it" })
  count: number;
}

@ObjectType({ simpleResolvers: true, description: "A day and template's coverage in the generated schedule" })
export class CoverageOutcome {
  @Field()
  date: string;

  @Field(() => ID)
  templateId: string;

  @Field(() => Int)
  required: number;

  @Field(() => Int, { description: "Published entries, kept drafts and new drafts" })
  assigned: number;
}

@ObjectType({ simpleResolvers: true, description: "A day and template left short, and why each staff member who was not put on it was not" })
export class UnfilledNeed {
  @Field()
  date: string;

  @Field(() => ID)
  templateId: string;

  @Field(() => Int)
  missing: number;

  @Field(() => [ReasonCount])
  reasons: ReasonCount[];
}

@ObjectType({ simpleResolvers: true, description: "One person's planned range against their limits" })
export class PersonOutcome {
  @Field(() => ID)
  workerId: string;

  @Field(() => Int)
  minutes: number;

  @Field(() => Int)
  shifts: number;

  @Field(() => Int)
  weekends: number;

  @Field(() => Int, { nullable: true })
  minMinutes: number | null;

  @Field(() => Int, { nullable: true })
  maxMinutes: number | null;

  @Field(() => Int, { nullable: true })
  maxWeekends: number | null;
}

@ObjectType({ simpleResolvers: true, description: "What a generation produced, and why" })
export class GenerationResult extends ObjectiveBreakdown {
  @Field(() => [GenerationViolation], { description: "Empty when it succeeded; otherwise the limits that could not all be met (nothing was written)" })
  hardViolations: GenerationViolation[];

  @Field(() => [CoverageOutcome])
  coverage: CoverageOutcome[];

  @Field(() => [UnfilledNeed])
  unfilled: UnfilledNeed[];

  @Field(() => [PersonOutcome])
  people: PersonOutcome[];

  @Field(() => [ID], { description: "The drafts written" })
  draftIds: string[];

  @Field(() => Float, { description: "Seconds the search ran" })
  searchSeconds: number;
}

@ObjectType({ simpleResolvers: true, description: "A request to fill a location's date range with drafts, and its outcome" })
@Entity("schedule_generations")
export class ScheduleGeneration extends TenantRecord {
  @Field(() => ID)
  @Column({ name: "location_id", type: "uuid" })
  locationId: string;

  @Field(() => GenerationStatus)
  @Column({ type: "text" })
  status: GenerationStatus;

  @Column({ type: "jsonb" })
  request: GenerationRequest;

  @Field(() => GenerationProgress, { nullable: true })
  @Column({ type: "jsonb", nullable: true })
  progress: GenerationProgress | null;

  @Field(() => GenerationResult, { nullable: true })
  @Column({ type: "jsonb", nullable: true })
  result: GenerationResult | null;

  @Field(() => String, { nullable: true, description: "Why it failed, when it did" })
  @Column({ type: "text", nullable: true })
  error: string | null;

  @Field({ description: "A cancel was asked for" })
  @Column({ name: "cancel_requested", type: "boolean" })
  cancelRequested: boolean;

  @Column({ name: "claimed_by", type: "text", nullable: true })
  claimedBy: string | null;

  @Column({ name: "lease_expires_at", type: "timestamptz", nullable: true })
  leaseExpiresAt: Date | null;

  @Field(() => Int, { description: "Times a service process took it up" })
  @Column({ type: "integer" })
  attempts: number;

  @Field(() => Date, { nullable: true })
  @Column({ name: "started_at", type: "timestamptz", nullable: true })
  startedAt: Date | null;

  @Field(() => Date, { nullable: true })
  @Column({ name: "finished_at", type: "timestamptz", nullable: true })
  finishedAt: Date | null;

  @Field()
  get startDate(): string {
    return this.request.startDate;
  }

  @Field()
  get endDate(): string {
    return this.request.endDate;
  }

  @Field(() => GenerationMode)
  get mode(): GenerationMode {
    return this.request.mode;
  }

  @Field(() => Int)
  get timeLimitSeconds(): number {
    return this.request.timeLimitSeconds;
  }
}

/** Per-person limits over the generated range, as stored. */
export interface StoredLimits {
  minMinutes?: number;
  maxMinutes?: number;
  maxShifts?: { templateId: string; max: number }[];
  maxConsecutiveShifts?: number;
  minConsecutiveShifts?: number;
  minConsecutiveDaysOff?: number;
  maxWeekends?: number;
}

/** The request as validated and stored: what a process taking the generation up runs. */
export interface GenerationRequest {
  startDate: string;
  endDate: string;
  mode: GenerationMode;
  timeLimitSeconds: number;
  seed: number;
  staffIds: string[] | null;
  defaultLimits: StoredLimits;
  limits: ({ staffId: string } & StoredLimits)[];
  costWeight: number;
  allowPremiums: boolean;
}
