import { Field, ID, ObjectType } from "type-graphql";
import { Column, Entity, PrimaryGeneratedColumn } from "typeorm";
import { numericColumn, TenantRecord } from "../../../common/entity-columns";

/** One worker's place in one policy; the balance is the sum of its ledger. */
@ObjectType({ simpleResolvers: true, description: "A worker's membership of a time-off policy, with the balance its ledger adds up to" })
@Entity("worker_policies")
export class WorkerPolicy extends TenantRecord {
  @Field(() => ID)
  @Column({ name: "policy_id", type: "uuid" })
  policyId: string;

  @Field(() => ID, { name: "workerId", simple: false })
  @Column({ name: "worker_id", type: "uuid" })
  staffId: string;

  @Field({ description: "Whether the worker has this policy (an excluded worker keeps the ledger)" })
  @Column({ name: "is_included", type: "boolean" })
  isIncluded: boolean;

  /** default: follows the policy's defaultSettings; manual: set by hand, left as set. */
  @Field({ description: "default (follows the policy's defaultSettings) or manual (set by hand)" })
  @Column({ type: "text" })
  assignment: string;

  /** The day accruals start counting for this worker (the day they were last included). */
  @Column({ name: "accrues_from", type: "date" })
  accruesFrom: string;
}

export const LEDGER_KINDS = ["grant", "accrual", "use", "give_back", "adjustment", "carryover_forfeit"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

@ObjectType({ simpleResolvers: true, description: "One movement of a balance: who, when, why and how much" })
@Entity("time_off_ledger")
export class LedgerEntry {
  @Field(() => ID)
  @PrimaryGeneratedColumn("uuid")
  id: string;

  /** Recording order (an identity column): the ledger reads in the order it was written. */
  @Column({ type: "bigint", insert: false, update: false })
  seq: string;

  @Column({ name: "organization_id", type: "uuid" })
  organizationId: string;

  @Field(() => ID)
  @Column({ name: "worker_policy_id", type: "uuid" })
  workerPolicyId: string;

  @Field({ description: "grant, accrual, use, give_back, adjustment or carryover_forfeit" })
  @Column({ type: "text" })
  kind: string;

  /** Exact; served rounded by the resolver. */
  @Column({ type: "numeric", transformer: numericColumn })
  hours: number;

  @Field({ description: "The day (organization's time zone) the hours count from" })
  @Column({ name: "effective_date", type: "date" })
  effectiveDate: string;

  @Field(() => String, { nullable: true, description: "The accrual period (a date, a year, or a shift) of grants, accruals and forfeits" })
  @Column({ name: "period_key", type: "text", nullable: true })
  periodKey: string | null;

  @Field(() => ID, { nullable: true, description: "The time-off request that used or gave back the hours" })
  @Column({ name: "request_id", type: "uuid", nullable: true })
  requestId: string | null;

  @Field(() => ID, { nullable: true, description: "The shift whose hours earned an accrual" })
  @Column({ name: "shift_id", type: "uuid", nullable: true })
  shiftId: string | null;

  @Field(() => ID, { nullable: true, description: "The staff member who made the change; null for the service or an organization token" })
  @Column({ name: "recorded_by", type: "uuid", nullable: true })
  recordedBy: string | null;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  note: string | null;

  @Field()
  @Column({ name: "recorded_at", type: "timestamptz" })
  recordedAt: Date;
}
