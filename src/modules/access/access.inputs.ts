import { Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { ArrayMaxSize, IsOptional, Length } from "../../common/input-checks";
import { ApiKey } from "./api-key.entity";
import { NullRefused, NoControlCharacters } from "../../common/validation";

@InputType()
export class CreateAccessRoleInput {
  @Field()
  @Length(1, 100)
  @NoControlCharacters()
  name: string;

  @Field(() => [String], { description: "Permission names, such as schedules:write" })
  @ArrayMaxSize(100)
  permissions: string[];
}

@InputType()
@NullRefused<UpdateAccessRoleInput>("name", "permissions")
export class UpdateAccessRoleInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 100)
  @NoControlCharacters()
  name?: string;

  @Field(() => [String], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(100)
  permissions?: string[];
}

@InputType()
export class CreateApiKeyInput {
  @Field()
  @Length(1, 100)
  @NoControlCharacters()
  name: string;
}

@ObjectType({ simpleResolvers: true })
export class CreatedApiKey {
  @Field(() => ApiKey)
  apiKey: ApiKey;

  @Field({ description: "The key itself. Shown once: only its hash is kept" })
  secret: string;
}

@InputType()
export class TokenExchangeInput {
  @Field()
  @Length(1, 200)
  apiKey: string;

  @Field(() => ID, { nullable: true, description: "The staff member to act as; without one the token has every permission" })
  staffId?: string;
}

@ObjectType({ simpleResolvers: true })
export class AccessToken {
  @Field()
  accessToken: string;

  @Field()
  tokenType: string;

  @Field(() => Int, { description: "Seconds until the token expires" })
  expiresIn: number;
}

@ObjectType({ simpleResolvers: true })
export class PermissionInfo {
  @Field()
  name: string;

  @Field()
  description: string;
}
