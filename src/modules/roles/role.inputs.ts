import { Field, Float, InputType, ObjectType } from "type-graphql";
import { IsOptional, Length } from "../../common/input-checks";
import { IsHourlyWage } from "../../common/money";
import { Connection } from "../../common/pagination";
import { Role } from "./role.entity";
import { NullRefused, NoControlCharacters } from "../../common/validation";

export const MAX_HOURLY_WAGE = 100_000;

@InputType()
export class CreateRoleInput {
  @Field()
  @Length(1, 200)
  @NoControlCharacters()
  name: string;

  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsHourlyWage(MAX_HOURLY_WAGE)
  hourlyWage?: number | null;
}

@InputType()
@NullRefused<UpdateRoleInput>("name")
export class UpdateRoleInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 200)
  @NoControlCharacters()
  name?: string;

  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsHourlyWage(MAX_HOURLY_WAGE)
  hourlyWage?: number | null;
}

@ObjectType({ simpleResolvers: true })
export class RoleConnection extends Connection(Role) {}
