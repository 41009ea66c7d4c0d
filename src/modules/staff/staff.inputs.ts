import { ArgsType, Field, Float, ID, InputType, ObjectType } from "type-graphql";
import { ArrayMaxSize, IsEmail, IsOptional, Length, MaxLength, ValidateNested } from "../../common/input-checks";
import { IsHourlyWage } from "../../common/money";
import { Connection, PageArgs } from "../../common/pagination";
import { MAX_HOURLY_WAGE } from "../roles";
import { StaffMember } from "./staff-member.entity";
import { NullRefused, NoControlCharacters } from "../../common/validation";

@InputType()
export class RoleWageInput {
  @Field(() => ID)
  roleId: string;

  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsHourlyWage(MAX_HOURLY_WAGE)
  hourlyWage?: number | null;
}

@InputType()
abstract class StaffFields {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(200)
  @NoControlCharacters()
  externalEmployeeId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(200)
  @NoControlCharacters()
  payrollId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsEmail()
  @MaxLength(320)
  email?: string | null;

  @Field(() => [ID], { nullable: true, description: "Roles the staff member may work" })
  @IsOptional()
  @ArrayMaxSize(500)
  roleIds?: string[];

  @Field(() => [ID], { nullable: true, description: "Locations the staff member works at" })
  @IsOptional()
  @ArrayMaxSize(500)
  locationIds?: string[];

  @Field(() => [RoleWageInput], { nullable: true, description: "Wages per role; each role is added to roleIds" })
  @IsOptional()
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  roleWages?: RoleWageInput[];

  @Field(() => Float, { nullable: true })
  @IsOptional()
  @IsHourlyWage(MAX_HOURLY_WAGE)
  hourlyWage?: number | null;

  @Field(() => ID, { nullable: true, description: "The access role; Worker when not given" })
  accessRoleId?: string;
}

@InputType()
export class CreateStaffInput extends StaffFields {
  @Field()
  @Length(1, 200)
  @NoControlCharacters()
  name: string;
}

@InputType()
@NullRefused<UpdateStaffInput>("name", "roleIds", "locationIds", "roleWages", "accessRoleId", "active")
export class UpdateStaffInput extends StaffFields {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, 200)
  @NoControlCharacters()
  name?: string;

  @Field(() => Boolean, { nullable: true })
  active?: boolean;
}

@ArgsType()
export class StaffFilterArgs extends PageArgs {
  @Field(() => ID, { nullable: true })
  locationId?: string;

  @Field(() => ID, { nullable: true })
  roleId?: string;

  @Field(() => Boolean, { nullable: true, description: "Include staff who have left" })
  includeInactive?: boolean;
}

@ObjectType({ simpleResolvers: true })
export class StaffConnection extends Connection(StaffMember) {}
