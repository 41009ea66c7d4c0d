import { Field, ID, ObjectType, registerEnumType } from "type-graphql";
import { Column, Entity } from "typeorm";
import { TenantRecord } from "../../common/entity-columns";

export enum ShiftRequestType {
  SWAP = "SWAP",
  COVER = "COVER",
  DROP = "DROP",
}
registerEnumType(ShiftRequestType, {
  name: "ShiftRequestType",
  description: "SWAP: two entries change hands; COVER: someone takes the entry; DROP: it becomes an open shift",
});

export enum ShiftRequestStatus {
  OPEN = "OPEN",
  PENDING_RECIPIENT = "PENDING_RECIPIENT",
  PENDING_APPROVAL = "PENDING_APPROVAL",
  APPROVED = "APPROVED",
  DECLINED = "DECLINED",
  REJECTED = "REJECTED",
  CANCELLED = "CANCELLED",
  EXPIRED = "EXPIRED",
}
registerEnumType(ShiftRequestStatus, { name: "ShiftRequestStatus" });

/** The statuses a request can still move from. */
export const LIVE_STATUSES = [ShiftRequestStatus.OPEN, ShiftRequestStatus.PENDING_RECIPIENT, ShiftRequestStatus.PENDING_APPROVAL];

@ObjectType({ simpleResolvers: true, description: "A worker's published entry offered to someone else: swapped, covered or dropped, with a manager's say" })
@Entity("shift_requests")
export class ShiftRequest extends TenantRecord {
  @Field(() => ID)
  @Column({ name: "location_id", type: "uuid" })
  locationId: string;

  @Field(() => ShiftRequestType)
  @Column({ type: "text" })
  type: ShiftRequestType;

  @Field(() => ShiftRequestStatus)
  @Column({ type: "text" })
  status: ShiftRequestStatus;

  @Field(() => ID, { description: "The worker whose entry it is" })
  @Column({ name: "requester_id", type: "uuid" })
  requesterStaffId: string;

  @Field(() => ID)
  @Column({ name: "entry_id", type: "uuid" })
  entryId: string;

  @Column({ name: "entry_start", type: "timestamptz" })
  entryStart: Date;

  @Column({ name: "entry_end", type: "timestamptz" })
  entryEnd: Date;

  @Field(() => ID, { nullable: true, description: "Who takes it: named, or the first to accept an open cover" })
  @Column({ name: "recipient_id", type: "uuid", nullable: true })
  recipientStaffId: string | null;

  @Field(() => ID, { nullable: true, description: "The recipient's entry a swap gives the requester" })
  @Column({ name: "recipient_entry_id", type: "uuid", nullable: true })
  recipientEntryId: string | null;

  @Column({ name: "recipient_entry_start", type: "timestamptz", nullable: true })
  recipientEntryStart: Date | null;

  @Column({ name: "recipient_entry_end", type: "timestamptz", nullable: true })
  recipientEntryEnd: Date | null;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  note: string | null;

  @Field(() => ID, { nullable: true, description: "The open shift an approved drop became" })
  @Column({ name: "open_shift_id", type: "uuid", nullable: true })
  openShiftId: string | null;

  @Field(() => ID, { nullable: true, description: "Who approved, rejected or cancelled it" })
  @Column({ name: "decided_by", type: "uuid", nullable: true })
  decidedBy: string | null;

  @Field(() => Date, { nullable: true })
  @Column({ name: "decided_at", type: "timestamptz", nullable: true })
  decidedAt: Date | null;

  @Field(() => String, { nullable: true, description: "Why a manager approved it despite compliance errors" })
  @Column({ name: "acknowledged_reason", type: "text", nullable: true })
  acknowledgedReason: string | null;

  @Column({ name: "acknowledged_violations", type: "jsonb", nullable: true })
  acknowledgedViolations: unknown;

  @Column({ name: "created_by", type: "uuid", nullable: true })
  createdBy: string | null;
}
