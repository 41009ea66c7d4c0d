import { Field, ID, InputType, Int } from "type-graphql";
import { IsOptional, Length, Max, Min } from "../../common/input-checks";
import { NullRefused, NoControlCharacters } from "../../common/validation";

const MINUTES_PER_DAY = 1440;

@InputType()
export class CreateBreakTypeInput {
  @Field(() => ID, { description: "The location (taken from the path in REST)" })
  locationId: string;

  @Field()
  @Length(1, 200)
  @NoControlCharacters()
  name: string;

  @Field(() => Int)
  @Min(1)
  @Max(MINUTES_PER_DAY)
  durationMinutes: number;

  @Field(() => Int, { nullable: true, description: "Default 0 (no frequency rule)" })
  @IsOptional()
  @Min(0)
  @Max(MINUTES_PER_DAY)
  frequencyMinutes?: number;

  @Field(() => Boolean, { nullable: true, description: "Default false" })
  paid?: boolean;

  @Field(() => Boolean, { nullable: true, description: "Default false" })
  mandatory?: boolean;

  @Field(() => Boolean, { nullable: true, description: "Default true" })
  enabled?: boolean;
}

@InputType()
@NullRefused<UpdateBreakTypeInput>("name", "durationMinutes", "frequencyMinutes", "paid", "mandatory", "enabled")
export class UpdateBreakTypeInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 200)
  @NoControlCharacters()
  name?: string;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(1)
  @Max(MINUTES_PER_DAY)
  durationMinutes?: number;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Min(0)
  @Max(MINUTES_PER_DAY)
  frequencyMinutes?: number;

  @Field(() => Boolean, { nullable: true })
  paid?: boolean;

  @Field(() => Boolean, { nullable: true })
  mandatory?: boolean;

  @Field(() => Boolean, { nullable: true })
  enabled?: boolean;
}
