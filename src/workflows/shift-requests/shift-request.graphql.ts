import { IsOptional, MaxLength } from "../../common/input-checks";
import { ArgsType, Field, ID, InputType, ObjectType } from "type-graphql";
import { NullRefused } from "../../common/validation";
import { EligibilityFindingView, PremiumView } from "../../modules/availability";
import { ShiftRequestStatus, ShiftRequestType } from "./shift-request.entity";

@InputType({ description: "A request on a published entry of the requester" })
export class CreateShiftRequestInput {
  @Field(() => ShiftRequestType)
  type: ShiftRequestType;

  @Field(() => ID)
  entryId: string;

  @Field(() => ID, { nullable: true, description: "COVER: the worker asked; left out, any eligible worker may accept. SWAP: the other entry's worker" })
  recipientStaffId?: string;

  @Field(() => ID, { nullable: true, description: "SWAP: the other worker's published entry" })
  recipientEntryId?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(2000)
  note?: string;
}

@InputType()
export class ApproveShiftRequestInput {
  @Field(() => Boolean, { nullable: true, description: "Approve despite compliance errors (a reason is required)" })
  acknowledge?: boolean;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(2000)
  reason?: string;
}

@ArgsType()
export class ShiftRequestListArgs {
  @Field(() => ShiftRequestStatus, { nullable: true })
  status?: ShiftRequestStatus;

  @Field(() => ShiftRequestType, { nullable: true })
  type?: ShiftRequestType;
}

@ObjectType({ simpleResolvers: true, description: "One person the request moves an entry to: whether they may take it, why not, and what it would cost" })
export class ShiftRequestPreviewPerson {
  @Field(() => ID)
  staffId: string;

  @Field(() => ID, { description: "The entry they would take" })
  entryId: string;

  @Field()
  eligible: boolean;

  @Field(() => [EligibilityFindingView])
  reasons: EligibilityFindingView[];

  @Field(() => [EligibilityFindingView], { description: "Compliance warnings and preferences" })
  warnings: EligibilityFindingView[];

  @Field(() => [PremiumView], { description: "Premiums the change would cost (rest, …)" })
  premiums: PremiumView[];
}

@ObjectType({ simpleResolvers: true, description: "What approving the request would mean, worked out now" })
export class ShiftRequestPreview {
  @Field(() => [ShiftRequestPreviewPerson])
  people: ShiftRequestPreviewPerson[];

  @Field(() => String, {
    nullable: true,
    description: "Why no predictability pay is owed for it, with the citation, where the location's rules have a notice window",
  })
  predictabilityPayExemption: string | null;
}

@ObjectType({ simpleResolvers: true, description: "Whether a location's shift requests need a manager's approval" })
export class ShiftRequestSettings {
  @Field(() => ID)
  locationId: string;

  @Field({ description: "Default true; false: acceptance completes a request" })
  shiftRequestsRequireApproval: boolean;
}

@InputType()
@NullRefused<UpdateShiftRequestSettingsInput>("shiftRequestsRequireApproval")
export class UpdateShiftRequestSettingsInput {
  @Field(() => Boolean, { nullable: true })
  shiftRequestsRequireApproval?: boolean;
}
