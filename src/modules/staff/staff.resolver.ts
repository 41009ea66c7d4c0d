import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import { Page } from "../../common/pagination";
import type { RequestContext } from "../../graphql/context";
import { AccessRole, accessRoleLoader } from "../access";
import { Location, locationLoader } from "../locations";
import { Role, roleLoader } from "../roles";
import { StaffMember, StaffRole } from "./staff-member.entity";
import { CreateStaffInput, StaffConnection, StaffFilterArgs, UpdateStaffInput } from "./staff.inputs";
import { staffLocationIdsLoader, staffRolesLoader } from "./staff.loaders";

@Resolver(() => StaffMember)
export class StaffResolver {
  @Query(() => StaffConnection)
  @Requires("staff:read")
  staffMembers(@Args() args: StaffFilterArgs, @Ctx() ctx: RequestContext): Promise<Page<StaffMember>> {
    return ctx.services.staff.list(actorOf(ctx), args);
  }

  @Query(() => StaffMember)
  @Requires("staff:read")
  staffMember(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<StaffMember> {
    return ctx.services.staff.get(actorOf(ctx), id);
  }

  @Mutation(() => StaffMember)
  @Requires("staff:write")
  createStaffMember(@Arg("input") input: CreateStaffInput, @Ctx() ctx: RequestContext): Promise<StaffMember> {
    return ctx.services.staff.create(actorOf(ctx), input);
  }

  @Mutation(() => StaffMember)
  @Requires("staff:write")
  updateStaffMember(@Arg("id", () => ID) id: string, @Arg("input") input: UpdateStaffInput, @Ctx() ctx: RequestContext): Promise<StaffMember> {
    return ctx.services.staff.update(actorOf(ctx), id, input);
  }

  @Mutation(() => Boolean, { description: "Marks the staff member as having left; their history stays" })
  @Requires("staff:write")
  deleteStaffMember(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.staff.delete(actorOf(ctx), id);
  }

  @FieldResolver(() => [StaffRole], { description: "Roles the staff member may work, with their own wage for each" })
  async roleWages(@Root() staff: StaffMember, @Ctx() ctx: RequestContext): Promise<StaffRole[]> {
    return staffRolesLoader(ctx).load(staff.id);
  }

  @FieldResolver(() => [ID])
  async roleIds(@Root() staff: StaffMember, @Ctx() ctx: RequestContext): Promise<string[]> {
    return (await staffRolesLoader(ctx).load(staff.id)).map((r) => r.roleId);
  }

  @FieldResolver(() => [ID])
  locationIds(@Root() staff: StaffMember, @Ctx() ctx: RequestContext): Promise<string[]> {
    return staffLocationIdsLoader(ctx).load(staff.id);
  }

  @FieldResolver(() => [Role])
  async roles(@Root() staff: StaffMember, @Ctx() ctx: RequestContext): Promise<Role[]> {
    const ids = (await staffRolesLoader(ctx).load(staff.id)).map((r) => r.roleId);
    return (await roleLoader(ctx).loadMany(ids)).filter((r): r is Role => r instanceof Role);
  }

  @FieldResolver(() => [Location])
  async locations(@Root() staff: StaffMember, @Ctx() ctx: RequestContext): Promise<Location[]> {
    const ids = await staffLocationIdsLoader(ctx).load(staff.id);
    return (await locationLoader(ctx).loadMany(ids)).filter((l): l is Location => l instanceof Location);
  }

  @FieldResolver(() => AccessRole, { nullable: true })
  accessRole(@Root() staff: StaffMember, @Ctx() ctx: RequestContext): Promise<AccessRole | null> {
    return accessRoleLoader(ctx).load(staff.accessRoleId);
  }
}
