import { Field, InputType, ObjectType } from "type-graphql";
import { IsOptional, Length, MaxLength } from "../../common/input-checks";
import { Connection } from "../../common/pagination";
import { Location } from "./location.entity";
import { NullRefused, NoControlCharacters } from "../../common/validation";

@InputType()
export class CreateLocationInput {
  @Field()
  @Length(1, 200)
  @NoControlCharacters()
  name: string;

  @Field({ description: "IANA time zone name, such as America/New_York" })
  timezone: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(200)
  @NoControlCharacters()
  externalId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(500)
  address?: string | null;
}

@InputType()
@NullRefused<UpdateLocationInput>("name", "timezone")
export class UpdateLocationInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 200)
  @NoControlCharacters()
  name?: string;

  @Field(() => String, { nullable: true })
  timezone?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(200)
  @NoControlCharacters()
  externalId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(500)
  address?: string | null;
}

@ObjectType({ simpleResolvers: true })
export class LocationConnection extends Connection(Location) {}
