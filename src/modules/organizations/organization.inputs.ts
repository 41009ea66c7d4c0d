import { Field, InputType, ObjectType } from "type-graphql";
import { IsOptional, Length } from "../../common/input-checks";
import { Organization } from "./organization.entity";
import { NullRefused, NoControlCharacters } from "../../common/validation";

@InputType()
export class CreateOrganizationInput {
  @Field()
  @Length(1, 200)
  @NoControlCharacters()
  name: string;

  @Field(() => String, { nullable: true, description: "IANA time zone; UTC when not given" })
  timezone?: string;
}

@InputType()
@NullRefused<UpdateOrganizationInput>("name", "timezone")
export class UpdateOrganizationInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 200)
  @NoControlCharacters()
  name?: string;

  @Field(() => String, { nullable: true })
  timezone?: string;
}

@ObjectType({ simpleResolvers: true })
export class CreateOrganizationPayload {
  @Field(() => Organization)
  organization: Organization;

  @Field({ description: "The organization's first API key. Shown once: only its hash is kept" })
  apiKey: string;
}
