import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { actorOf, Requires } from "../../graphql/authorization";
import { Page, PageArgs } from "../../common/pagination";
import type { RequestContext } from "../../graphql/context";
import { Role } from "./role.entity";
import { CreateRoleInput, RoleConnection, UpdateRoleInput } from "./role.inputs";

@Resolver(() => Role)
export class RoleResolver {
  @Query(() => RoleConnection)
  @Requires("roles:read")
  roles(@Args() page: PageArgs, @Ctx() ctx: RequestContext): Promise<Page<Role>> {
    return ctx.services.roles.list(actorOf(ctx), page);
  }

  @Query(() => Role)
  @Requires("roles:read")
  role(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<Role> {
    return ctx.services.roles.get(actorOf(ctx), id);
  }

  @Mutation(() => Role)
  @Requires("roles:write")
  createRole(@Arg("input") input: CreateRoleInput, @Ctx() ctx: RequestContext): Promise<Role> {
    return ctx.services.roles.create(actorOf(ctx), input);
  }

  @Mutation(() => Role)
  @Requires("roles:write")
  updateRole(@Arg("id", () => ID) id: string, @Arg("input") input: UpdateRoleInput, @Ctx() ctx: RequestContext): Promise<Role> {
    return ctx.services.roles.update(actorOf(ctx), id, input);
  }

  @Mutation(() => Boolean)
  @Requires("roles:write")
  deleteRole(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.roles.delete(actorOf(ctx), id);
  }
}
